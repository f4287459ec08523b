import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, tableName } from './client';
import { isConditionFailed } from './helpers';

// Short-lived records with `expiresAt` (TTL in AWS). dynalite never expires them, so readers
// treat a past `expiresAt` as absent.
const revokedKeys = (jti: string) => ({ PK: `REVOKED#${jti}`, SK: 'REVOKED' });
const failureKeys = (username: string) => ({ PK: `LOGIN_FAILURES#${username}`, SK: 'LOGIN_FAILURES' });
const nowSeconds = () => Math.floor(Date.now() / 1000);

export interface FailureWindow {
  count: number;
  /** Epoch seconds when the window (and any lock) ends. */
  expiresAt: number;
}

/** Revoked access tokens (logout), kept until the token would have expired anyway. */
export const revokedTokens = {
  async revoke(jti: string, expiresAt: number): Promise<void> {
    await doc.send(
      new PutCommand({ TableName: tableName(), Item: { ...revokedKeys(jti), type: 'RevokedToken', expiresAt } }),
    );
  },

  async isRevoked(jti: string): Promise<boolean> {
    const { Item } = await doc.send(new GetCommand({ TableName: tableName(), Key: revokedKeys(jti) }));
    return !!Item && Number(Item.expiresAt) > nowSeconds();
  },
};

/** Failed sign-ins per username, counted in a fixed window that starts at the first failure. */
export const loginFailures = {
  async get(username: string): Promise<FailureWindow | undefined> {
    const { Item } = await doc.send(new GetCommand({ TableName: tableName(), Key: failureKeys(username), ConsistentRead: true }));
    if (!Item || Number(Item.expiresAt) <= nowSeconds()) return undefined;
    return { count: Number(Item.count), expiresAt: Number(Item.expiresAt) };
  },

  /** One more failure: counted in the open window, or the first of a new one. */
  async record(username: string, windowSeconds: number): Promise<FailureWindow> {
    const now = nowSeconds();
    try {
      const { Attributes } = await doc.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: failureKeys(username),
          UpdateExpression: 'ADD #count :one',
          ConditionExpression: 'expiresAt > :now',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':one': 1, ':now': now },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { count: Number(Attributes?.count), expiresAt: Number(Attributes?.expiresAt) };
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
    const window = { count: 1, expiresAt: now + windowSeconds };
    await doc.send(
      new PutCommand({ TableName: tableName(), Item: { ...failureKeys(username), type: 'LoginFailures', ...window } }),
    );
    return window;
  },

  async clear(username: string): Promise<void> {
    await doc.send(new DeleteCommand({ TableName: tableName(), Key: failureKeys(username) }));
  },
};
