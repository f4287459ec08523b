import { ADMIN_ROLE } from '#lib/auth/types';
import { Conflict } from '#lib/errors';
import { AdminCount, User } from '#lib/store/entities/account';
import { expr } from '#lib/store/expression';
import { EXISTS, NEW } from '#lib/store/table';
import * as users from './users';

/**
 * Unscoped admins (lib/auth/membership.ts isCountedAdmin), never above those stored, so "one remains" holds
 * under parallel deletes without transactions (docs/adr/0065, 0222). Its existence means the first admin was made.
 */
// a removal races at most a start of the count
const MAX_ATTEMPTS = 3;

/** Adds `delta` to the count if it exists; with `above`, only while the count is greater than that. */
const add = async (delta: number, above?: number): Promise<boolean> =>
  !!(await AdminCount.update(undefined, { increment: { count: delta } }, above === undefined ? EXISTS : expr('#count > :above', { above })));

/** Starts the count from the counted admins stored, plus `self` (the caller's, stored, not yet counted); false when another start won. */
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
    await User.update(username, { remove: ['adminCountPending'] }, EXISTS);
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
