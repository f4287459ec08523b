import { adminCount, lastAdmin } from '#lib/access/repository/admins';
import * as roles from '#lib/access/repository/roles';
import { removeUnheldRole, roleCountsHolders } from '#lib/access/repository/roles';
import { countServicesWithRole, createServiceAction, patchHoldingAction, removeServiceHolding, removeServiceHoldingAction, serviceCredentials, services, storedService, updateServiceHolding } from '#lib/access/repository/services';
import type { NewService, Service, ServicePatch } from '#lib/access/repository/services';
import * as users from '#lib/access/repository/users';
import { removeUserHolding, type NewUser, type User } from '#lib/access/repository/users';
import { Conflict, Invalid, NotFound } from '#lib/shared/errors';
import { normalizeAccessScope, type AccessScopeEntry } from '#lib/shared/access';
import { builtInRole } from './roles';
import { ADMIN_ROLE, VIEWER_ROLE } from './types';
import { apart, transact } from '#lib/store/transaction';

/**
 * Who holds which role, kept right under parallel requests (docs/guide/rules/access.md): a user or a
 * registered service is stored, deleted or moved in one transaction with its counts: the unscoped
 * admins' count (a delete that would take it below one is refused whole: 409, the last unscoped
 * admin stays) or its created roles' holder counts (a role anyone holds is never deleted: 409).
 * A scoped admin holds no fleet-wide permission (UNSCOPED_ONLY): it is stored uncounted, deleted freely.
 */

// a removal races at most a few changes of the same record
const MAX_REMOVE_ATTEMPTS = 3;

const unknownRole = (role: string) =>
  new Invalid('body.role must be an existing role id', [{ field: 'body.role', message: `body.role ${role} is not a role` }]);

/** The admins the "at least one remains" rule counts: the built-in admin role, unscoped. */
const isCountedAdmin = (holder: { role: string; scope?: readonly AccessScopeEntry[] }): boolean =>
  holder.role === ADMIN_ROLE && normalizeAccessScope(holder.scope).length === 0;

/** Users and services holding a role, read consistently: starts the count of a role stored before counts. */
const holdersOf = async (roleid: string): Promise<number> => (await users.countWithRole(roleid)) + (await countServicesWithRole(roleid));



/** Whether a holder's removal from `role` must give a count back (a role from before counts, once started, left it out). */
const countsHolder = async (role: string): Promise<boolean> => !builtInRole(role) && (await roleCountsHolders(role));

/** Stores a user with its count in one transaction: the unscoped admins' or its created role's holders. */
export const storeUser = async (user: NewUser, passwordHash: string): Promise<User> => {
  const { action, record } = users.createAction(user, passwordHash);
  const counted = isCountedAdmin(user);
  if (!counted && builtInRole(user.role)) return users.create(user, passwordHash);
  for (let attempt = 0; attempt < MAX_REMOVE_ATTEMPTS; attempt++) {
    if (counted) await apart(() => adminCount.ensure());
    else if (!(await apart(() => roles.counting(user.role, () => holdersOf(user.role))))) throw unknownRole(user.role);
    const outcome = await transact([action, counted ? adminCount.action(1) : roles.holderAction(user.role, 1)]);
    if (outcome.held) return record;
    if (outcome.failed.includes(0)) throw users.exists(user.username);
    // the count was not there (a role deleted or started meanwhile): look again
  }
  throw new Conflict(`User ${user.username} could not be counted; try again`);
};

/** Deletes a user (and its count, in the same transaction): 404 unknown, 409 when it is the last unscoped admin. */
export const removeUser = async (username: string): Promise<void> => {
  for (let attempt = 0; attempt < MAX_REMOVE_ATTEMPTS; attempt++) {
    const user = await users.get(username); // 404
    const { role } = user;
    if (isCountedAdmin(user)) {
      await apart(() => adminCount.ensure());
      const outcome = await transact([users.removeHoldingAction(username, role, false), adminCount.action(-1)]);
      if (outcome.held) return;
      if (!outcome.failed.includes(0)) throw lastAdmin(); // only the count refused: another unscoped admin must stay
    } else if (role === ADMIN_ROLE) {
      if (await removeUserHolding(username, role, true)) return;
    } else if (await countsHolder(role)) {
      const outcome = await transact([users.removeHoldingAction(username, role), roles.holderAction(role, -1)]);
      if (outcome.held) return;
      // a count already at zero (a role counted from a query that missed the user) gives nothing back
      if (!outcome.failed.includes(0) && (await removeUserHolding(username, role))) return;
    } else if (await removeUserHolding(username, role)) {
      return;
    }
    // the record changed between the read and the delete: look again
  }
  throw new Conflict(`User ${username} changed while being deleted; try again`);
};

/** Built-in roles and roles some user or service holds stay (409); 404 when unknown. */
export const deleteRole = async (roleid: string): Promise<void> => {
  if (builtInRole(roleid)) throw new Conflict(`Role ${roleid} is built in and cannot be deleted`);
  await removeUnheldRole(roleid, () => holdersOf(roleid));
};

/** Registers a service holding its role (default viewer), counted in the same transaction; 400 naming body.role when no such role. */
export const storeService = async (service: NewService, secretHash: string): Promise<Service> => {
  const role = service.role ?? VIEWER_ROLE;
  if (builtInRole(role)) return services.create({ ...service, role }, secretHash);
  for (let attempt = 0; attempt < MAX_REMOVE_ATTEMPTS; attempt++) {
    if (!(await apart(() => roles.counting(role, () => holdersOf(role))))) throw unknownRole(role);
    const { action, record } = createServiceAction({ ...service, role }, secretHash);
    if ((await transact([action, roles.holderAction(role, 1)])).held) return record;
    // the role was deleted or its count started meanwhile: look again
  }
  throw new Conflict('The service could not be counted as a holder of its role; try again');
};

const serviceNotFound = (id: string) => new NotFound(`Service ${id} not found`);

/** The service as stored now (strongly consistent), or 404. */
const currentService = async (id: string): Promise<Service> => {
  const found = await serviceCredentials(id);
  if (!found) throw serviceNotFound(id);
  return found.service;
};

/** Changes the fields given; a move to another role changes both roles' counts in the same transaction. */
export const changeService = async (id: string, patch: ServicePatch): Promise<Service> => {
  if (patch.role === undefined) return services.update(id, patch); // 404
  const role = patch.role;
  for (let attempt = 0; attempt < MAX_REMOVE_ATTEMPTS; attempt++) {
    const held = (await currentService(id)).role;
    if (held === role) {
      const updated = await updateServiceHolding(id, patch, held);
      if (updated) return updated;
      continue;
    }
    if (!builtInRole(role) && !(await apart(() => roles.counting(role, () => holdersOf(role))))) throw unknownRole(role);
    const counted = await countsHolder(held);
    const moves = [...(builtInRole(role) ? [] : [roles.holderAction(role, 1)]), ...(counted ? [roles.holderAction(held, -1)] : [])];
    const outcome = await transact([patchHoldingAction(id, patch, held), ...moves]);
    if (outcome.held) return storedService(id);
    // moved or deleted meanwhile, or a role deleted or started meanwhile: look again
  }
  throw new Conflict(`Service ${id} changed while being updated; try again`);
};

/** Deletes a service (404 unknown) and gives its role's count back in the same transaction. */
export const removeService = async (id: string): Promise<void> => {
  for (let attempt = 0; attempt < MAX_REMOVE_ATTEMPTS; attempt++) {
    const { role } = await currentService(id);
    if (!(await countsHolder(role))) {
      if (await removeServiceHolding(id, role)) return;
      continue;
    }
    const outcome = await transact([removeServiceHoldingAction(id, role), roles.holderAction(role, -1)]);
    if (outcome.held) return;
    // a count already at zero gives nothing back
    if (!outcome.failed.includes(0) && (await removeServiceHolding(id, role))) return;
  }
  throw new Conflict(`Service ${id} changed while being deleted; try again`);
};
