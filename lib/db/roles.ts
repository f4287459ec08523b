import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Role } from '#lib/auth/types';
import { Conflict, NotFound } from '#lib/errors';
import { doc, tableName } from './client';
import { conditionHeld, deleteItem, type Item, patchExisting, putNew, queryPartition, updateItem } from './helpers';

export interface NewRole {
  roleid: string;
  name: string;
  description: string;
  permissions: string[];
}

/** What PUT may change of a created role: its name (and so its id) stays. */
export type RolePatch = Partial<Pick<NewRole, 'description' | 'permissions'>>;

// Created roles live in one partition sorted by id; built-ins come from code (lib/auth/roles).
// A created role counts its holders (`holders`): never below the users and services that hold
// it, so a held role is never deleted (lib/auth/membership.ts orders the writes). Roles stored
// before the count have none; it is started from the holders on first need.
const PARTITION = 'ROLE';
const keys = (roleid: string) => ({ PK: PARTITION, SK: `ROLE#${roleid}` });

const fromItem = (item: Item): Role => ({
  roleid: String(item.roleid),
  name: String(item.name),
  description: String(item.description ?? ''),
  permissions: Array.isArray(item.permissions) ? item.permissions.map(String) : [],
  builtIn: false,
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
});

const notFound = (roleid: string) => new NotFound(`Role ${roleid} not found`);

// a write races at most a few changes of the same role
const MAX_ATTEMPTS = 5;

const read = async (roleid: string): Promise<Item | undefined> =>
  (await doc.send(new GetCommand({ TableName: tableName(), Key: keys(roleid), ConsistentRead: true }))).Item;

/**
 * Starts the holder count of a role stored before counts existed, from its stored holders. Safe:
 * holders are added only through `claim`, which waits for the count, so none is in flight.
 */
const startCount = async (item: Item, countHolders: () => Promise<number>): Promise<void> => {
  await conditionHeld(
    updateItem({ PK: item.PK, SK: item.SK }, {
      UpdateExpression: 'SET holders = :n',
      ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(holders)',
      ExpressionAttributeValues: { ':n': await countHolders() },
    }),
  );
};

export const create = async (role: NewRole): Promise<Role> => {
  const now = new Date().toISOString();
  const record: Role = { ...role, builtIn: false, createdAt: now, updatedAt: now };
  await putNew(
    { ...keys(role.roleid), type: 'Role', ...role, holders: 0, createdAt: now, updatedAt: now, version: 1 },
    () => new Conflict(`Role ${role.roleid} already exists`),
  );
  return record;
};

export const list = async (): Promise<Role[]> => {
  return (await queryPartition(PARTITION)).map(fromItem);
};

export const find = async (roleid: string): Promise<Role | undefined> => {
  const { Item: item } = await doc.send(new GetCommand({ TableName: tableName(), Key: keys(roleid), ConsistentRead: true }));
  return item ? fromItem(item) : undefined;
};

export const get = async (roleid: string): Promise<Role> => {
  const role = await find(roleid);
  if (!role) throw notFound(roleid);
  return role;
};

/**
 * Sets the fields given in one conditional write (404 when unknown): a holder's next request
 * reads the role by key, strongly consistent, so it acts with the new permissions.
 */
export const update = async (roleid: string, patch: RolePatch): Promise<Role> =>
  fromItem(await patchExisting(keys(roleid), { ...patch }, () => notFound(roleid)));

/**
 * One more holder, before the user or service is stored (or moved to the role). False when the
 * role does not exist. `countHolders` counts its stored holders, for a role from before the count.
 */
export const claim = async (roleid: string, countHolders: () => Promise<number>): Promise<boolean> => {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const claimed = await conditionHeld(
      updateItem(keys(roleid), {
        UpdateExpression: 'SET holders = holders + :one',
        ConditionExpression: 'attribute_exists(holders)',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    if (claimed) return true;
    const item = await read(roleid);
    if (!item) return false;
    await startCount(item, countHolders);
  }
  throw new Conflict(`Role ${roleid} changed while being assigned; try again`);
};

/** One holder less, after the user or service was deleted or moved away (or was not stored after all). */
export const release = async (roleid: string): Promise<void> => {
  await conditionHeld(
    updateItem(keys(roleid), {
      UpdateExpression: 'SET holders = holders - :one',
      ConditionExpression: 'holders > :zero',
      ExpressionAttributeValues: { ':one': 1, ':zero': 0 },
    }),
  );
};

// Only deletions need these: outside the object, bundles that never delete leave them out
// (DESIGN §8 size target).

/** Whether the role keeps a holder count (read before deleting a holder: see membership). */
export const roleCountsHolders = async (roleid: string): Promise<boolean> => (await read(roleid))?.holders !== undefined;

/** Deletes a created role that no user or service holds: 409 while one does, 404 when unknown. */
export const removeUnheldRole = async (roleid: string, countHolders: () => Promise<number>): Promise<void> => {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const removed = await conditionHeld(
      deleteItem(keys(roleid), {
        ConditionExpression: 'holders <= :zero',
        ExpressionAttributeValues: { ':zero': 0 },
      }),
    );
    if (removed) return;
    const item = await read(roleid);
    if (!item) throw notFound(roleid);
    if (item.holders === undefined) await startCount(item, countHolders);
    else if (Number(item.holders) > 0) break;
  }
  throw new Conflict(`Role ${roleid} is still assigned to users or services`);
};
