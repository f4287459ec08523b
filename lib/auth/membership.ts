import { adminCount } from '#lib/db/admins';
import * as roles from '#lib/db/roles';
import { removeUnheldRole, roleCountsHolders } from '#lib/db/roles';
import * as users from '#lib/db/users';
import { removeUserHolding, type NewUser, type User } from '#lib/db/users';
import { Conflict, Invalid } from '#lib/errors';
import { builtInRole } from './roles';
import { ADMIN_ROLE } from './types';

/**
 * Who holds which role, kept right under parallel requests without transactions (dynalite has
 * none) by ordering two conditional writes so that a crash between them fails safe:
 * - a created role counts its holders: a user is counted BEFORE it is stored and uncounted
 *   AFTER it is deleted, so the count is never below the truth and a role some user holds is
 *   never deleted (409), however the requests interleave;
 * - the admins are counted the other way round (stored, then counted; uncounted, then
 *   deleted), so that count is never above the truth and the last admin is never removed (409).
 */

// a removal races at most a few changes of the same record
const MAX_REMOVE_ATTEMPTS = 3;

const unknownRole = (role: string) =>
  new Invalid('body.role must be an existing role id', [{ field: 'body.role', message: `body.role ${role} is not a role` }]);

export const storeUser = async (user: NewUser, passwordHash: string): Promise<User> => {
  if (user.role === ADMIN_ROLE) {
    const stored = await users.create(user, passwordHash, { adminCountPending: true });
    await adminCount.added(user.username);
    return stored;
  }
  if (builtInRole(user.role)) return users.create(user, passwordHash);
  if (!(await roles.claim(user.role, () => users.countWithRole(user.role)))) throw unknownRole(user.role);
  try {
    return await users.create(user, passwordHash);
  } catch (error) {
    await roles.release(user.role);
    throw error;
  }
};

/** Deletes a user: 404 unknown, 409 when it is the last admin. */
export const removeUser = async (username: string): Promise<void> => {
  for (let attempt = 0; attempt < MAX_REMOVE_ATTEMPTS; attempt++) {
    const { role } = await users.get(username); // 404
    if (role === ADMIN_ROLE) {
      await adminCount.reserveRemoval(); // 409 unless another admin stays
      if (await removeUserHolding(username, role)) return;
      await adminCount.cancelRemoval();
    } else {
      // a role from before holder counts: its count, once started, already left this user out
      const counted = !builtInRole(role) && (await roleCountsHolders(role));
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
  await removeUnheldRole(roleid, () => users.countWithRole(roleid));
};
