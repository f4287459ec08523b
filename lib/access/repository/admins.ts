import { ADMIN_ROLE } from '#lib/access/types';
import { Conflict } from '#lib/shared/errors';
import { AdminCountEntity } from '#lib/access/entities';
import { expr } from '#lib/store/expression';
import { EXISTS, NEW } from '#lib/store/table';
import type { Action } from '#lib/store/transaction';
import * as users from './users';

/**
 * Unscoped admins (lib/access/membership.ts isCountedAdmin), changed in the transaction that stores or
 * deletes one, so it always equals those stored and "one remains" holds under parallel deletes
 * (docs/guide/rules/access.md). Its existence means the first admin was made.
 */
/** Starts the count from the counted admins stored; false when another start won. */
const start = async (): Promise<boolean> => AdminCountEntity.put(undefined, { count: await users.countWithRole(ADMIN_ROLE, { countedAdminsOnly: true }) }, NEW);

export const lastAdmin = () => new Conflict('At least one admin must remain, unscoped (a scoped admin does not count)');

export const adminCount = {
  /** One counted admin more (stored in the same transaction), or one less, refused when it is the last one. */
  action(delta: 1 | -1): Action {
    return { update: AdminCountEntity.key(undefined), change: { increment: { count: delta } }, condition: delta > 0 ? EXISTS : expr('#count > :above', { above: 1 }) };
  },

  async exists(): Promise<boolean> {
    return !!(await AdminCountEntity.read(undefined, { consistent: true }));
  },

  /** Starts the count if there is none (first admin of a store, or a store from before the count). */
  async ensure(): Promise<void> {
    if (!(await this.exists())) await start();
  },

};
