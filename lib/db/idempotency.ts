import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { doc, tableName } from './client';
import { conditionHeld, deleteItem, updateItem } from './helpers';

/*
 * Idempotency keys (issue 24 item 4): one item per (route, caller, key), its partition the hash
 * of the three (`IDEMPOTENCY#<sha256>`), so keys spread over partitions and the key itself is not
 * stored. A claim is a conditional put; the item then holds the request's fingerprint, the claim's
 * token and, once the create answered, its sealed result, until `expiresAt` (TTL).
 */
const keys = (id: string) => ({ PK: `IDEMPOTENCY#${id}`, SK: 'IDEMPOTENCY' });

export interface KeyRecord {
  fingerprint: string;
  token: string;
  state: 'pending' | 'done';
  /** Epoch ms until which a pending claim is its request's; after it, a retry may run again. */
  leaseUntil: number;
  /** The sealed first result (state done). */
  result?: string;
  /** The result's audit record is not stored yet: the next replay stores it (lib/http/idempotency.ts). */
  auditPending?: boolean;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Claims a key for a request: true when no live record held it (none, expired, or a lapsed
 * pending claim of the same request); otherwise false and nothing written.
 */
export const claim = (id: string, record: KeyRecord, expiresAt: number): Promise<boolean> =>
  conditionHeld(
    doc.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys(id), type: 'IdempotencyKey', ...record, expiresAt },
        ConditionExpression:
          'attribute_not_exists(PK) OR expiresAt <= :now OR (#state = :pending AND leaseUntil <= :nowMs AND fingerprint = :fingerprint)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':now': nowSeconds(), ':pending': 'pending', ':nowMs': Date.now(), ':fingerprint': record.fingerprint },
      }),
    ),
  );

/** The live record of a key (strongly consistent: a claim a moment ago is seen), or undefined. */
export const read = async (id: string): Promise<KeyRecord | undefined> => {
  const { Item: item } = await doc.send(new GetCommand({ TableName: tableName(), Key: keys(id), ConsistentRead: true }));
  if (!item || Number(item.expiresAt) <= nowSeconds()) return undefined;
  return {
    fingerprint: String(item.fingerprint),
    token: String(item.token),
    state: item.state === 'done' ? 'done' : 'pending',
    leaseUntil: Number(item.leaseUntil),
    ...(typeof item.result === 'string' ? { result: item.result } : {}),
    ...(item.auditPending === true ? { auditPending: true } : {}),
  };
};

/** Keeps the result of the claim `token` made (a claim taken over since keeps its own), marked when its audit record is still to be stored. */
export const complete = async (id: string, token: string, result: string, auditPending = false): Promise<void> => {
  await conditionHeld(
    updateItem(keys(id), {
      UpdateExpression: `SET #state = :done, #result = :result${auditPending ? ', auditPending = :pending' : ''}`,
      ConditionExpression: '#token = :token',
      ExpressionAttributeNames: { '#state': 'state', '#result': 'result', '#token': 'token' },
      ExpressionAttributeValues: { ':done': 'done', ':result': result, ':token': token, ...(auditPending ? { ':pending': true } : {}) },
    }),
  );
};

/** The kept result's audit record is stored now (a replay stored it). */
export const audited = async (id: string): Promise<void> => {
  await conditionHeld(updateItem(keys(id), { UpdateExpression: 'REMOVE auditPending', ConditionExpression: 'attribute_exists(auditPending)' }));
};

/** Lets go of the pending claim `token` made, so that a retry runs again. */
export const release = async (id: string, token: string): Promise<void> => {
  await conditionHeld(
    deleteItem(keys(id), {
      ConditionExpression: '#token = :token AND #state = :pending',
      ExpressionAttributeNames: { '#token': 'token', '#state': 'state' },
      ExpressionAttributeValues: { ':token': token, ':pending': 'pending' },
    }),
  );
};
