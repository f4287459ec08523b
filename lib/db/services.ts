import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound } from '#lib/errors';
import { normalizeScope, type ScopeEntry } from '#lib/shared/access';
import { doc, tableName } from './client';
import { conditionHeld, deleteItem, isConditionFailed, partitionRecords, patchExpression, putNew, queryAll, updateItem, whenExists, type Item } from './helpers';

/** A registered service (DESIGN §5), as every answer shows it: never its secret's hash, never its incarnation. */
export interface Service {
  id: string;
  name: string;
  description: string;
  url: string;
  active: boolean;
  /** The role its tokens act with (DESIGN §5); `viewer` unless registered with another. */
  role: string;
  /** Regions and (region, location) pairs it acts in; empty: unscoped. */
  scope: ScopeEntry[];
  createdAt: string;
  updatedAt: string;
}

export interface NewService {
  name: string;
  description?: string;
  url: string;
  active?: boolean;
  role?: string;
  scope?: ScopeEntry[];
}

export type ServicePatch = Partial<NewService>;

/** What the token exchange and every service token are checked against; stays inside lib/. */
export interface ServiceCredentials {
  service: Service;
  /**
   * Random id of the service's current credentials: new at registration, at every secret
   * rotation and at every deactivation. A token carries the one it was issued under and is
   * refused once it differs. Empty on services stored before incarnations (no token until rotated).
   */
  incarnation: string;
  /** `sha256$<base64url>` of the client secret (lib/auth/serviceSecrets.ts); empty until one was issued. */
  secretHash: string;
}

// One partition, sorted by id: list = one Query.
const PARTITION = 'SERVICE';
const keys = (id: string) => ({ PK: PARTITION, SK: `SERVICE#${id}` });

const fromItem = (item: Item): Service => ({
  id: String(item.id),
  name: String(item.name),
  description: String(item.description ?? ''),
  url: String(item.url),
  active: item.active === true,
  role: String(item.role ?? 'viewer'),
  scope: normalizeScope(Array.isArray(item.scope) ? (item.scope as ScopeEntry[]) : []),
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
});

const notFound = (id: string) => new NotFound(`Service ${id} not found`);

/** The service and its credentials as stored now (strongly consistent). */
export const serviceCredentials = async (id: string): Promise<ServiceCredentials | undefined> => {
  const { Item: item } = await doc.send(new GetCommand({ TableName: tableName(), Key: keys(id), ConsistentRead: true }));
  return item ? { service: fromItem(item), incarnation: String(item.incarnation ?? ''), secretHash: String(item.secretHash ?? '') } : undefined;
};

/** Still holds `role` (a service stored before roles has none and acts as `viewer`). */
const holding = (role: string) => ({
  condition: role === 'viewer' ? '(attribute_not_exists(#held) OR #held = :held)' : '#held = :held',
  names: { '#held': 'role' },
  values: { ':held': role },
});

/**
 * The fields of `patch` (scope normalised) in one conditional write that also bumps version and
 * updatedAt; deactivating starts a new incarnation, so no token of before outlives it, even once
 * the service is active again. With `heldRole`, only while the service still holds that role.
 */
const patchInput = (patch: ServicePatch, heldRole?: string) => {
  const set: Item = { ...patch, ...(patch.scope ? { scope: normalizeScope(patch.scope) } : {}), ...(patch.active === false ? { incarnation: randomUUID() } : {}) };
  const expression = patchExpression(set, new Date().toISOString());
  const held = heldRole === undefined ? undefined : holding(heldRole);
  return {
    ...expression,
    ConditionExpression: held ? `attribute_exists(PK) AND ${held.condition}` : 'attribute_exists(PK)',
    ExpressionAttributeNames: { ...expression.ExpressionAttributeNames, ...held?.names },
    ExpressionAttributeValues: { ...expression.ExpressionAttributeValues, ...held?.values },
    ReturnValues: 'ALL_NEW' as const,
  };
};

export const services = {
  ...partitionRecords<string, Service, ServicePatch>(PARTITION, keys, fromItem, notFound),

  /** Sets only the fields given, in one conditional write (404 when unknown); see `patchInput`. */
  async update(id: string, patch: ServicePatch): Promise<Service> {
    const { Attributes } = await whenExists(updateItem(keys(id), patchInput(patch)), () => notFound(id));
    return fromItem(Attributes ?? {});
  },

  /** Stores a new service, with the hash of its first secret when given, under a new incarnation. */
  async create(service: NewService, secretHash?: string): Promise<Service> {
    const now = new Date().toISOString();
    const record: Service = {
      id: randomUUID(),
      ...service,
      description: service.description ?? '',
      active: service.active ?? true,
      role: service.role ?? 'viewer',
      scope: normalizeScope(service.scope),
      createdAt: now,
      updatedAt: now,
    };
    await putNew(
      { ...keys(record.id), type: 'Service', ...record, ...(secretHash ? { secretHash } : {}), incarnation: randomUUID(), version: 1 },
      () => new Conflict(`Service ${record.id} exists`),
    );
    return record;
  },
};

// Only role changes, rotation and deletion need these: outside the object, other bundles leave
// them out (DESIGN §8 size target).

/** As `services.update`, only while the service still holds `heldRole`: undefined when gone or changed. */
export const updateServiceHolding = async (id: string, patch: ServicePatch, heldRole: string): Promise<Service | undefined> => {
  try {
    const { Attributes } = await updateItem(keys(id), patchInput(patch, heldRole));
    return fromItem(Attributes ?? {});
  } catch (error) {
    if (isConditionFailed(error)) return undefined;
    throw error;
  }
};

/** A new secret hash and a new incarnation in one write: every token issued before stops working. 404 when unknown. */
export const rotateServiceSecret = async (id: string, secretHash: string): Promise<Service> => {
  const { Attributes } = await whenExists(
    updateItem(keys(id), {
      UpdateExpression: 'SET secretHash = :hash, incarnation = :inc, updatedAt = :iso, version = version + :one',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':hash': secretHash, ':inc': randomUUID(), ':iso': new Date().toISOString(), ':one': 1 },
      ReturnValues: 'ALL_NEW',
    }),
    () => notFound(id),
  );
  return fromItem(Attributes ?? {});
};

/** Deletes the service if it still holds `role`; false when it is gone or holds another role. */
export const removeServiceHolding = async (id: string, role: string): Promise<boolean> => {
  const held = holding(role);
  return conditionHeld(deleteItem(keys(id), { ConditionExpression: held.condition, ExpressionAttributeNames: held.names, ExpressionAttributeValues: held.values }));
};

/** Services holding `role`, read consistently (one Query of the services' partition): for starting a role's holder count. */
export const countServicesWithRole = async (role: string): Promise<number> => {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk',
    FilterExpression: '#role = :role',
    ExpressionAttributeNames: { '#role': 'role' },
    ExpressionAttributeValues: { ':pk': PARTITION, ':role': role },
    ProjectionExpression: 'PK',
    ConsistentRead: true,
  });
  return items.length;
};
