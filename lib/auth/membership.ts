import { adminCount } from '#lib/db/admins';
import * as roles from '#lib/db/roles';
import { removeUnheldRole, roleCountsHolders } from '#lib/db/roles';
import * as users from '#lib/db/users';
import { removeUserHolding, type NewUser, type User } from '#lib/db/users';
import { Conflict, Invalid } from '#lib/errors';
import { normalizeScope, type ScopeEntry } from '#lib/shared/access';
import { builtInRole } from './roles';
import { ADMIN_ROLE } from './types';

/**
 * Who holds which role, kept right under parallel requests without transactions (dynalite has
 * none) by ordering two conditional writes so that a crash between them fails safe:
 * - a created role counts its holders: a user is counted BEFORE it is stored and uncounted
 *   AFTER it is deleted, so the count is never below the truth and a role some user holds is
 *   never deleted (409), however the requests interleave;
 * - the unscoped admins are counted the other way round (stored, then counted; uncounted, then
 *   deleted), so that count is never above the truth and the last unscoped admin is never
 *   removed (409). A scoped admin holds no fleet-wide permission (UNSCOPED_ONLY): it is stored
 *   without being counted and deleted freely.
 */

// a removal races at most a few changes of the same record
const MAX_REMOVE_ATTEMPTS = 3;

const unknownRole = (role: string) =>
  new Invalid('body.role must be an existing role id', [{ field: 'body.role', message: `body.role ${role} is not a role` }]);

/** The admins the "at least one remains" rule counts: the built-in admin role, unscoped. */
export const isCountedAdmin = (holder: { role: string; scope?: readonly ScopeEntry[] }): boolean =>
  holder.role === ADMIN_ROLE && normalizeScope(holder.scope).length === 0;

/** Users holding a role, read consistently: starts the count of a role stored before counts. */
const holdersOf = (roleid: string): Promise<number> => users.countWithRole(roleid);

/** One more holder of `role` before it is stored; a built-in role counts none. 400 when no such role. */
const claimRole = async (role: string): Promise<void> => {
  if (builtInRole(role)) return;
  if (!(await roles.claim(role, () => holdersOf(role)))) throw unknownRole(role);
};

/** The claim of `claimRole` given back: the holder was not stored after all. */
const releaseRole = async (role: string): Promise<void> => {
  if (!builtInRole(role)) await roles.release(role);
};

/** Whether a holder's removal from `role` must give a count back (a role from before counts, once started, left it out). */
const countsHolder = async (role: string): Promise<boolean> => !builtInRole(role) && (await roleCountsHolders(role));

export const storeUser = async (user: NewUser, passwordHash: string): Promise<User> => {
  if (isCountedAdmin(user)) {
    const stored = await users.create(user, passwordHash, { adminCountPending: true });
    await adminCount.added(user.username);
    return stored;
  }
  await claimRole(user.role);
  try {
    return await users.create(user, passwordHash);
  } catch (error) {
    await releaseRole(user.role);
    throw error;
  }
};

/** Deletes a user: 404 unknown, 409 when it is the last unscoped admin. */
export const removeUser = async (username: string): Promise<void> => {
  for (let attempt = 0; attempt < MAX_REMOVE_ATTEMPTS; attempt++) {
    const user = await users.get(username); // 404
    const { role } = user;
    if (isCountedAdmin(user)) {
      await adminCount.reserveRemoval(); // 409 unless another unscoped admin stays
      if (await removeUserHolding(username, role, false)) return;
      await adminCount.cancelRemoval();
    } else if (role === ADMIN_ROLE) {
      if (await removeUserHolding(username, role, true)) return;
    } else {
      const counted = await countsHolder(role);
      if (await removeUserHolding(username, role)) {
        if (counted) await roles.release(role);
        return;
      }
    }
    // the record changed between the read and the delete: look again
  }
  throw new Conflict(`User ${username} changed while being deleted; try again`);
};

/** Built-in roles and roles some user holds stay (409); 404 when unknown. */
export const deleteRole = async (roleid: string): Promise<void> => {
  if (builtInRole(roleid)) throw new Conflict(`Role ${roleid} is built in and cannot be deleted`);
  await removeUnheldRole(roleid, () => holdersOf(roleid));
};
