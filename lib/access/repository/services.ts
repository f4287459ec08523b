import { randomUUID } from 'node:crypto';
import { Conflict, NotFound } from '#lib/shared/errors';
import { normalizeAccessScope } from '#lib/shared/access';
import { ServiceEntity as Services, SERVICES } from '#lib/access/entities';
import { collection } from '#lib/store/entity';
import { and, expr, patchOf, type Expr } from '#lib/store/expression';
import { EXISTS, must, NEW, type Item } from '#lib/store/table';
import { transactHeld, type Action } from '#lib/store/transaction';

/** A registered service (DESIGN §5) as every answer shows it (its entity's answer): never its secret's hash nor its incarnation. */
export type Service = ReturnType<typeof Services.fromItem>;

export type NewService = Pick<Service, 'name' | 'url'> & Partial<Pick<Service, 'description' | 'active' | 'role' | 'scope'>>;
export type ServicePatch = Partial<NewService>;

// One partition, sorted by id: list = one Query.
const all = collection(SERVICES);
const notFound = (id: string) => new NotFound(`Service ${id} not found`);

/**
 * The service and its credentials as stored now (strongly consistent); stays inside lib/. `incarnation`: new at registration,
 * rotation and deactivation (docs/guide/rules/access.md "Rotating or deactivating a service starts a new incarnation, ending its tokens at once"; empty before incarnations); `secretHash`: `sha256$<base64url>`, empty until issued.
 */
export const serviceCredentials = async (id: string) => {
  const item = await Services.read(id, { consistent: true });
  return item ? { service: Services.fromItem(item), incarnation: String(item.incarnation ?? ''), secretHash: String(item.secretHash ?? '') } : undefined;
};

/** Still holds `role` (a service stored before roles has none and acts as `viewer`). */
const holding = (role: string): Expr => expr(role === 'viewer' ? '(attribute_not_exists(#role) OR #role = :held)' : '#role = :held', { held: role });

/** `patch` in one conditional write with version and updatedAt; deactivation starts a new incarnation; `heldRole`: only while held. */
const patchParts = (fields: ServicePatch, heldRole?: string) => {
  const set: Item = { ...fields, ...(fields.scope ? { scope: normalizeAccessScope(fields.scope) } : {}), ...(fields.active === false ? { incarnation: randomUUID() } : {}) };
  return { change: patchOf(set), condition: and(EXISTS, heldRole === undefined ? undefined : holding(heldRole)) };
};
const patch = (id: string, fields: ServicePatch, heldRole?: string): Promise<Item | undefined> => {
  const { change, condition } = patchParts(fields, heldRole);
  return Services.update(id, change, condition, 'ALL_NEW');
};

/** `patch` as an action of the transaction that moves the service's role counts with it. */
export const patchHoldingAction = (id: string, fields: ServicePatch, heldRole: string): Action => ({ update: Services.key(id), ...patchParts(fields, heldRole) });

/** The service as stored now (after a transaction, which answers no values). */
export const storedService = async (id: string): Promise<Service> => Services.fromItem(await must(Services.read(id, { consistent: true }), () => notFound(id)));

/** The put of a new service (with the hash of its first secret when given, under a new incarnation) and the record it answers. */
export const createServiceAction = (service: NewService, secretHash?: string): { action: Action; record: Service } => {
  const now = new Date().toISOString();
  const record: Service = {
    id: randomUUID(),
    ...service,
    description: service.description ?? '',
    active: service.active ?? true,
    role: service.role ?? 'viewer',
    scope: normalizeAccessScope(service.scope),
    createdAt: now,
    updatedAt: now,
  };
  const stored = { ...record, ...(secretHash ? { secretHash } : {}), incarnation: randomUUID(), version: 1 };
  return { action: { put: Services.item(record.id, stored), condition: NEW }, record };
};

/** The delete of the service while it still holds `role`, in the transaction that gives its count back. */
export const removeServiceHoldingAction = (id: string, role: string): Action => ({ remove: Services.key(id), condition: holding(role) });

export const services = {
  async list(): Promise<Service[]> {
    return (await all.all()).map(Services.fromItem);
  },

  async get(id: string): Promise<Service> {
    return must(Services.find(id), () => notFound(id));
  },

  /** Sets only the fields given, in one conditional write (404 when unknown); see `patch`. */
  async update(id: string, fields: ServicePatch): Promise<Service> {
    return Services.fromItem(await must(patch(id, fields), () => notFound(id)));
  },

  /** Stores a new service, with the hash of its first secret when given, under a new incarnation. */
  async create(service: NewService, secretHash?: string): Promise<Service> {
    const { action, record } = createServiceAction(service, secretHash);
    await must(transactHeld([action]), () => new Conflict(`Service ${record.id} exists`));
    return record;
  },
};

// Only role changes, rotation and deletion need these: outside the object, other bundles leave
// them out and stay small (DESIGN §8).

/** As `services.update`, only while the service still holds `heldRole`: undefined when gone or changed. */
export const updateServiceHolding = async (id: string, fields: ServicePatch, heldRole: string): Promise<Service | undefined> => {
  const item = await patch(id, fields, heldRole);
  return item && Services.fromItem(item);
};

/** A new secret hash and a new incarnation in one write: every token issued before stops working. 404 when unknown. */
export const rotateServiceSecret = async (id: string, secretHash: string): Promise<Service> => {
  return Services.fromItem(await must(Services.update(id, patchOf({ secretHash, incarnation: randomUUID() }), EXISTS, 'ALL_NEW'), () => notFound(id)));
};

/** Deletes the service if it still holds `role`; false when it is gone or holds another role. */
export const removeServiceHolding = async (id: string, role: string): Promise<boolean> => Services.remove(id, holding(role));

/** Services holding `role`, read consistently (one Query of the services' partition): for starting a role's holder count. */
export const countServicesWithRole = async (role: string): Promise<number> =>
  (await all.all({ filter: expr('#role = :role', { role }), project: ['PK'], consistent: true })).length;
