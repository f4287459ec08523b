import type { Role } from '#lib/access/types';
import { Conflict, NotFound } from '#lib/shared/errors';
import { CreatedRoleEntity, ROLES } from '#lib/access/entities';
import { collection } from '#lib/store/entity';
import { expr, patchOf } from '#lib/store/expression';
import { EXISTS, must, NEW, type Item } from '#lib/store/table';
import type { Action } from '#lib/store/transaction';

export type NewRole = Omit<Role, 'builtIn' | 'createdAt' | 'updatedAt'>;

/** What PUT may change of a created role: its name (and so its id) stays. */
export type RolePatch = Partial<Pick<NewRole, 'description' | 'permissions'>>;

// Created roles in one partition, counting their holders; built-ins from code (docs/guide/rules/access.md and docs/guide/rules/store.md).
const notFound = (roleid: string) => new NotFound(`Role ${roleid} not found`);

// a write races at most a few changes of the same role
const MAX_ATTEMPTS = 5;

const read = (roleid: string): Promise<Item | undefined> => CreatedRoleEntity.read(roleid, { consistent: true });

/** Starts the holder count of a role stored before counts (docs/guide/rules/store.md "The compatibility branches that stay"). */
const startCount = async (roleid: string, countHolders: () => Promise<number>): Promise<void> => {
  await CreatedRoleEntity.update(roleid, { set: { holders: await countHolders() } }, 'attribute_exists(PK) AND attribute_not_exists(#holders)');
};

export const create = async (role: NewRole): Promise<Role> => {
  const now = new Date().toISOString();
  const record: Role = { ...role, builtIn: false, createdAt: now, updatedAt: now };
  await must(CreatedRoleEntity.put(role.roleid, { ...role, holders: 0, createdAt: now, updatedAt: now, version: 1 }, NEW), () => new Conflict(`Role ${role.roleid} already exists`));
  return record;
};

export const list = async (): Promise<Role[]> => (await collection(ROLES).all()).map(CreatedRoleEntity.fromItem);

export const find = async (roleid: string): Promise<Role | undefined> => CreatedRoleEntity.find(roleid, { consistent: true });

export const get = async (roleid: string): Promise<Role> => must(find(roleid), () => notFound(roleid));

export const update = async (roleid: string, patch: RolePatch): Promise<Role> =>
  CreatedRoleEntity.fromItem(await must(CreatedRoleEntity.update(roleid, patchOf({ ...patch }), EXISTS, 'ALL_NEW'), () => notFound(roleid)));

/** One holder more (a holder stored or moved to it), or less (deleted or moved away), in the transaction that stores or deletes the holder. */
export const holderAction = (roleid: string, delta: 1 | -1): Action =>
  delta > 0
    ? { update: CreatedRoleEntity.key(roleid), change: { increment: { holders: 1 } }, condition: 'attribute_exists(#holders)' }
    : { update: CreatedRoleEntity.key(roleid), change: { increment: { holders: -1 } }, condition: expr('#holders > :zero', { zero: 0 }) };

/** Whether the role exists, its holder count started if it was stored before counts (docs/guide/rules/store.md "The compatibility branches that stay"). */
export const counting = async (roleid: string, countHolders: () => Promise<number>): Promise<boolean> => {
  const item = await read(roleid);
  if (!item) return false;
  if (item.holders === undefined) await startCount(roleid, countHolders);
  return true;
};

/** Whether the role keeps a holder count (read before deleting a holder: see membership). */
export const roleCountsHolders = async (roleid: string): Promise<boolean> => (await read(roleid))?.holders !== undefined;

/** Deletes a created role that no user or service holds: 409 while one does, 404 when unknown. */
export const removeUnheldRole = async (roleid: string, countHolders: () => Promise<number>): Promise<void> => {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (await CreatedRoleEntity.remove(roleid, expr('#holders <= :zero', { zero: 0 }))) return;
    const item = await read(roleid);
    if (!item) throw notFound(roleid);
    if (item.holders === undefined) await startCount(roleid, countHolders);
    else if (Number(item.holders) > 0) break;
  }
  throw new Conflict(`Role ${roleid} is still assigned to users or services`);
};
