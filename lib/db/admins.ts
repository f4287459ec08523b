import { ADMIN_ROLE } from '#lib/auth/types';
import { Conflict } from '#lib/errors';
import { AdminCount } from '#lib/store/entities/account';
import { expr } from '#lib/store/expression';
import { EXISTS, NEW } from '#lib/store/table';
import * as users from './users';

/**
 * The number of unscoped admins (the built-in admin role, no scope: lib/auth/membership.ts
 * isCountedAdmin; a scoped admin is never counted), kept so that "at least one unscoped admin
 * remains" holds under parallel deletes
 * without transactions (dynalite has none). It is never above the admins stored: an admin is
 * stored first and counted after; a removal is taken off the count first (only while one stays)
 * and the admin deleted after, the count given back when the delete does not happen. A crash
 * between two such writes leaves the count too low, which can refuse a removal (409) but never
 * allow one too many. Its existence also says that the store has had its first admin, so the
 * configured one is never created again (lib/auth/signin).
 */
// a removal races at most a start of the count
const MAX_ATTEMPTS = 3;

/** Adds `delta` to the count if it exists; with `above`, only while the count is greater than that. */
const add = async (delta: number, above?: number): Promise<boolean> =>
  !!(await AdminCount.update(undefined, { increment: { count: delta } }, above === undefined ? EXISTS : expr('#count > :above', { above })));

/**
 * Starts the count from the admins stored and counted, plus `self` for the caller's own admin
 * that is stored but not yet counted. Admins of other requests in flight are left out: each
 * counts itself once the count exists. False when another request started it first.
 */
const start = async (self: 0 | 1): Promise<boolean> =>
  AdminCount.put(undefined, { count: (await users.countWithRole(ADMIN_ROLE, { countedAdminsOnly: true })) + self }, NEW);

export const adminCount = {
  async exists(): Promise<boolean> {
    return !!(await AdminCount.read(undefined, { consistent: true }));
  },

  /** Starts the count if there is none (first admin of a store, or a store from before the count). */
  async ensure(): Promise<void> {
    if (!(await this.exists())) await start(0);
  },

  /** Counts an admin just stored with `adminCountPending`. */
  async added(username: string): Promise<void> {
    for (let counted = false; !counted; ) {
      counted = (await add(1)) || (await start(1));
    }
    await users.adminCounted(username);
  },

  /** Before an admin is deleted: takes it off the count, or 409 when it is the last one. */
  async reserveRemoval(): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (await add(-1, 1)) return;
      if (await this.exists()) break;
      await start(0);
    }
    throw new Conflict('At least one admin must remain, unscoped (a scoped admin does not count)');
  },

  /** The deletion reserved did not happen (the user was gone or no longer an admin). */
  async cancelRemoval(): Promise<void> {
    await add(1);
  },
};
