import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound } from '#lib/errors';
import { normalizeScope, type ScopeEntry } from '#lib/shared/access';
import { doc, tableName } from './client';
import { conditionHeld, deleteItem, queryAll, type Item, whenExists, putNew, isConditionFailed, queryPartition, updateItem } from './helpers';

/** A user as every answer shows it: never the hash, never token bookkeeping. */
export interface User {
  username: string;
  email: string;
  name: string;
  role: string;
  /** Regions and (region, location) pairs the user acts in; absent: unscoped (DESIGN §5). */
  scope?: ScopeEntry[];
  createdAt: string;
  updatedAt: string;
}

export interface NewUser {
  username: string;
  email: string;
  name: string;
  role: string;
  scope?: ScopeEntry[];
}

/** What sign-in and token checks need; stays inside lib/. */
export interface Credentials {
  user: User;
  passwordHash: string;
  /**
   * Random id of this record's credentials: new at every (re)creation and every password
   * change. A token carries the one it was issued under and is refused once it differs, so
   * a deleted and re-created username never revives old tokens. Empty on records written
   * before incarnations existed (sign-in gives them one).
   */
  incarnation: string;
}

// All users in one partition sorted by name: the list is one Query, and so is counting the
// holders of a role when a count has to be started (lib/db/roles, lib/db/admins). GSI1 groups
// them by role.
const PARTITION = 'USER';
const keys = (username: string) => ({ PK: PARTITION, SK: `USER#${username}` });
const roleKeys = (role: string, username: string) => ({ GSI1PK: `USER_ROLE#${role}`, GSI1SK: `USER#${username}` });

const fromItem = (item: Item): User => ({
  username: String(item.username),
  email: String(item.email),
  name: String(item.name),
  role: String(item.role),
  ...scopeField(Array.isArray(item.scope) ? (item.scope as ScopeEntry[]) : undefined),
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
});

/** A scope is stored and answered only when it narrows: an unscoped user has no `scope` field. */
const scopeField = (scope: ScopeEntry[] | undefined): { scope?: ScopeEntry[] } => {
  const normal = normalizeScope(scope);
  return normal.length > 0 ? { scope: normal } : {};
};

const notFound = (username: string) => new NotFound(`User ${username} not found`);

/**
 * Stores a new user (409 if the username exists). `adminCountPending` marks an admin not yet
 * in the admin count (lib/db/admins), so that starting the count does not count it twice.
 */
export const create = async (user: NewUser, passwordHash: string, options: { adminCountPending?: boolean } = {}): Promise<User> => {
  const now = new Date().toISOString();
  const { scope, ...rest } = user;
  const record: User = { ...rest, ...scopeField(scope), createdAt: now, updatedAt: now };
  await putNew(
    {
      ...keys(user.username),
      ...roleKeys(user.role, user.username),
      type: 'User',
      ...record,
      passwordHash,
      incarnation: randomUUID(),
      ...(options.adminCountPending ? { adminCountPending: true } : {}),
      version: 1,
    },
    () => new Conflict(`User ${user.username} already exists`),
  );
  return record;
};

export const list = async (): Promise<User[]> => {
  return (await queryPartition(PARTITION)).map(fromItem);
};

export const find = async (username: string): Promise<User | undefined> => {
  return (await credentials(username))?.user;
};

export const get = async (username: string): Promise<User> => {
  const user = await find(username);
  if (!user) throw notFound(username);
  return user;
};

export const credentials = async (username: string): Promise<Credentials | undefined> => {
  const { Item: item } = await doc.send(new GetCommand({ TableName: tableName(), Key: keys(username), ConsistentRead: true }));
  if (!item) return undefined;
  return { user: fromItem(item), passwordHash: String(item.passwordHash), incarnation: String(item.incarnation ?? '') };
};

/** New hash and a new incarnation: every token issued before stops working. */
export const setPassword = async (username: string, passwordHash: string): Promise<void> => {
  await whenExists(
    updateItem(keys(username), {
      UpdateExpression: 'SET passwordHash = :hash, incarnation = :inc, updatedAt = :iso, version = version + :one',
      ExpressionAttributeValues: { ':hash': passwordHash, ':inc': randomUUID(), ':iso': new Date().toISOString(), ':one': 1 },
      ConditionExpression: 'attribute_exists(PK)',
    }),
    () => notFound(username),
  );
};

/** The admin count includes this admin now (see `create`). */
export const adminCounted = async (username: string): Promise<void> => {
  await conditionHeld(
    updateItem(keys(username), {
      UpdateExpression: 'REMOVE adminCountPending',
      ConditionExpression: 'attribute_exists(PK)',
    }),
  );
};

/**
 * Users holding `role`, read consistently (one Query of the users' partition). With
 * `countedAdminsOnly`, only those the admin count counts: unscoped (no `scope`), and not still
 * waiting to be counted.
 */
export const countWithRole = async (role: string, options: { countedAdminsOnly?: boolean } = {}): Promise<number> => {
  const pending = options.countedAdminsOnly ? ' AND attribute_not_exists(adminCountPending) AND attribute_not_exists(#scope)' : '';
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk',
    FilterExpression: `#role = :role${pending}`,
    ExpressionAttributeNames: { '#role': 'role', ...(options.countedAdminsOnly ? { '#scope': 'scope' } : {}) },
    ExpressionAttributeValues: { ':pk': PARTITION, ':role': role },
    ProjectionExpression: 'PK',
    ConsistentRead: true,
  });
  return items.length;
};

// Only sign-in and deletion need these: outside the object, other bundles leave them out
// (DESIGN §8 size target).

/**
 * Gives a record written before incarnations existed its first one, only if it is still
 * the record whose password was just checked (same hash, still none). Answers the
 * incarnation, or undefined when the record moved meanwhile (the caller refuses).
 */
export const adoptIncarnation = async (username: string, passwordHash: string): Promise<string | undefined> => {
  const incarnation = randomUUID();
  try {
    await updateItem(keys(username), {
      UpdateExpression: 'SET incarnation = :inc',
      ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(incarnation) AND passwordHash = :hash',
      ExpressionAttributeValues: { ':inc': incarnation, ':hash': passwordHash },
    });
    return incarnation;
  } catch (error) {
    if (isConditionFailed(error)) return undefined;
    throw error;
  }
};

/**
 * Deletes the user if it still holds `role` and, when `scoped` is given, is still scoped (or
 * still unscoped) as read; false when it is gone or changed.
 */
export const removeUserHolding = async (username: string, role: string, scoped?: boolean): Promise<boolean> => {
  const scopeCondition = scoped === undefined ? '' : scoped ? ' AND attribute_exists(#scope)' : ' AND attribute_not_exists(#scope)';
  return conditionHeld(
    deleteItem(keys(username), {
      ConditionExpression: `#role = :role${scopeCondition}`,
      ExpressionAttributeNames: { '#role': 'role', ...(scoped === undefined ? {} : { '#scope': 'scope' }) },
      ExpressionAttributeValues: { ':role': role },
    }),
  );
};
