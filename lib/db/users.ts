import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound } from '#lib/errors';
import { doc, tableName } from './client';
import { queryAll, type Item, deleteExisting, whenExists, putNew } from './helpers';

/** A user as every answer shows it: never the hash, never token bookkeeping. */
export interface User {
  username: string;
  email: string;
  name: string;
  role: string;
  createdAt: string;
  updatedAt: string;
}

export interface NewUser {
  username: string;
  email: string;
  name: string;
  role: string;
}

/** What sign-in and token checks need; stays inside lib/. */
export interface Credentials {
  user: User;
  passwordHash: string;
  /** Epoch ms; tokens issued before are refused (set by every password change). */
  tokensValidAfter: number;
}

// All users in one partition sorted by name: the list is one Query. GSI1 groups them by role,
// so "is this role still assigned?" is one Query with Limit 1.
const PARTITION = 'USER';
const keys = (username: string) => ({ PK: PARTITION, SK: `USER#${username}` });
const roleKeys = (role: string, username: string) => ({ GSI1PK: `USER_ROLE#${role}`, GSI1SK: `USER#${username}` });

const fromItem = (item: Item): User => ({
  username: String(item.username),
  email: String(item.email),
  name: String(item.name),
  role: String(item.role),
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
});

const notFound = (username: string) => new NotFound(`User ${username} not found`);

export const users = {
  async create(user: NewUser, passwordHash: string): Promise<User> {
    const now = new Date().toISOString();
    const record: User = { ...user, createdAt: now, updatedAt: now };
    await putNew(
      {
        ...keys(user.username),
        ...roleKeys(user.role, user.username),
        type: 'User',
        ...record,
        passwordHash,
        tokensValidAfter: 0,
        version: 1,
      },
      () => new Conflict(`User ${user.username} already exists`),
    );
    return record;
  },

  async list(): Promise<User[]> {
    const items = await queryAll({
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': PARTITION },
    });
    return items.map(fromItem);
  },

  async find(username: string): Promise<User | undefined> {
    return (await this.credentials(username))?.user;
  },

  async get(username: string): Promise<User> {
    const user = await this.find(username);
    if (!user) throw notFound(username);
    return user;
  },

  async credentials(username: string): Promise<Credentials | undefined> {
    const { Item: item } = await doc.send(new GetCommand({ TableName: tableName(), Key: keys(username), ConsistentRead: true }));
    if (!item) return undefined;
    return { user: fromItem(item), passwordHash: String(item.passwordHash), tokensValidAfter: Number(item.tokensValidAfter ?? 0) };
  },

  /** New hash; every token issued before this moment stops working. */
  async setPassword(username: string, passwordHash: string): Promise<void> {
    await whenExists(
      doc.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys(username),
        UpdateExpression: 'SET passwordHash = :hash, tokensValidAfter = :now, updatedAt = :iso, version = version + :one',
        ExpressionAttributeValues: { ':hash': passwordHash, ':now': Date.now(), ':iso': new Date().toISOString(), ':one': 1 },
        ConditionExpression: 'attribute_exists(PK)',
      }),
      ),
      () => notFound(username),
    );
  },

  async remove(username: string): Promise<void> {
    await deleteExisting(keys(username), () => notFound(username));
  },

  async anyWithRole(role: string): Promise<boolean> {
    const { Items } = await doc.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': roleKeys(role, '').GSI1PK },
        Limit: 1,
      }),
    );
    return (Items?.length ?? 0) > 0;
  },
};
