import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, tableName } from './client';
import { conditionHeld, isConditionFailed, updateItem } from './helpers';

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

/** A password check may run (`windowEnd` names the window it counts in), or the budget is spent. */
export type Reservation = { granted: true; windowEnd: number } | { granted: false; window: FailureWindow };

/** Revoked access tokens (logout), kept until the token would have expired anyway. */
export const revokedTokens = {
  async revoke(jti: string, expiresAt: number): Promise<void> {
    await doc.send(
      new PutCommand({ TableName: tableName(), Item: { ...revokedKeys(jti), type: 'RevokedToken', expiresAt } }),
    );
  },

  async isRevoked(jti: string): Promise<boolean> {
    // strongly consistent (DESIGN §5): a token logged out a moment ago is refused everywhere at once
    const { Item } = await doc.send(new GetCommand({ TableName: tableName(), Key: revokedKeys(jti), ConsistentRead: true }));
    return !!Item && Number(Item.expiresAt) > nowSeconds();
  },
};

// a reservation races at most a few window changes (open, expire); past that, answer "busy"
const MAX_RESERVE_ATTEMPTS = 4;

/**
 * Password guesses per username, in a fixed window that starts at the first guess. Every check
 * of a password first takes one slot (`reserve`), atomically, so parallel guesses share one
 * budget; a right password gives its slot back (`release`), a wrong one keeps it.
 */
export const loginFailures = {
  async get(username: string): Promise<FailureWindow | undefined> {
    const { Item } = await doc.send(new GetCommand({ TableName: tableName(), Key: failureKeys(username), ConsistentRead: true }));
    if (!Item || Number(Item.expiresAt) <= nowSeconds()) return undefined;
    return { count: Number(Item.count), expiresAt: Number(Item.expiresAt) };
  },

  async reserve(username: string, maxFailures: number, windowSeconds: number): Promise<Reservation> {
    for (let attempt = 0; attempt < MAX_RESERVE_ATTEMPTS; attempt++) {
      const now = nowSeconds();
      // a slot in the open window, if one is left
      const inWindow = new UpdateCommand({
        TableName: tableName(),
        Key: failureKeys(username),
        UpdateExpression: 'SET #count = #count + :one',
        ConditionExpression: 'expiresAt > :now AND #count < :max',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':one': 1, ':now': now, ':max': maxFailures },
        ReturnValues: 'ALL_NEW',
      });
      try {
        const { Attributes } = await doc.send(inWindow);
        return { granted: true, windowEnd: Number(Attributes?.expiresAt) };
      } catch (error) {
        if (!isConditionFailed(error)) throw error;
      }
      // no window, or an ended one: this guess opens the next
      const windowEnd = now + windowSeconds;
      const opened = await conditionHeld(
        updateItem(failureKeys(username), {
          UpdateExpression: 'SET #count = :one, expiresAt = :end, #type = :type',
          ConditionExpression: 'attribute_not_exists(PK) OR expiresAt <= :now',
          ExpressionAttributeNames: { '#count': 'count', '#type': 'type' },
          ExpressionAttributeValues: { ':one': 1, ':end': windowEnd, ':now': now, ':type': 'LoginFailures' },
        }),
      );
      if (opened) return { granted: true, windowEnd };
      const window = await this.get(username);
      if (window && window.count >= maxFailures) return { granted: false, window };
      // the window moved between the two writes: try again
    }
    return { granted: false, window: { count: maxFailures, expiresAt: nowSeconds() + 1 } };
  },

  /** Gives back a slot taken by `reserve` (a right password), if its window is still the current one. */
  async release(username: string, windowEnd: number): Promise<void> {
    await conditionHeld(
      updateItem(failureKeys(username), {
        UpdateExpression: 'SET #count = #count - :one',
        ConditionExpression: 'expiresAt = :end AND #count > :zero',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':one': 1, ':end': windowEnd, ':zero': 0 },
      }),
    );
  },
};
