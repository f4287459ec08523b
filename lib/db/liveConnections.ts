import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DeviceFilter } from '#lib/devices/deviceScope';
import { doc, tableName } from './client';
import { isConditionFailed, type Item } from './helpers';

/*
 * Connections of live dashboards (docs/data-model.md "Live"; tickets: liveTickets.ts). A
 * connection is one item (its filter and scope key) plus one subscription item in the partition
 * of its scope key: a change reads the partitions of the (at most 8) scope keys that contain its
 * room, never the list of all connections. Everything carries `expiresAt` (TTL); readers skip
 * what has expired.
 */
const connectionKey = (connectionId: string) => ({ PK: `LIVECONN#${connectionId}`, SK: 'CONN' });
const subscriptionKey = (scopeKey: string, connectionId: string) => ({ PK: `LIVESCOPE#${scopeKey}`, SK: connectionId });
const nowSeconds = () => Math.floor(Date.now() / 1000);

export interface Subscriber {
  connectionId: string;
  scopeKey: string;
}

interface Scoped {
  filter: DeviceFilter;
  scopeKey: string;
}

export const toFilter = (value: unknown): DeviceFilter => {
  const filter = (value ?? {}) as Partial<DeviceFilter>;
  return { regionName: String(filter.regionName), locationName: String(filter.locationName), roomName: String(filter.roomName) };
};

const putSubscription = (scope: Scoped, connectionId: string, expiresAt: number) =>
  doc.send(new PutCommand({ TableName: tableName(), Item: { ...subscriptionKey(scope.scopeKey, connectionId), type: 'LiveSubscription', expiresAt } }));
const deleteSubscription = (scopeKey: string, connectionId: string) =>
  doc.send(new DeleteCommand({ TableName: tableName(), Key: subscriptionKey(scopeKey, connectionId) }));

/** Registers an open connection watching `scope` until `expiresAt` (epoch s). */
export const open = async (connectionId: string, scope: Scoped, expiresAt: number): Promise<void> => {
  await Promise.all([
    putSubscription(scope, connectionId, expiresAt),
    doc.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...connectionKey(connectionId), type: 'LiveConnection', ...scope, connectedAt: new Date().toISOString(), expiresAt },
      }),
    ),
  ]);
};

/** Moves a connection to another scope; false when the connection is not (or no longer) registered. */
export const move = async (connectionId: string, scope: Scoped): Promise<boolean> => {
  const { Item } = await doc.send(new GetCommand({ TableName: tableName(), Key: connectionKey(connectionId), ConsistentRead: true }));
  if (!Item || Number(Item.expiresAt) <= nowSeconds()) return false;
  const expiresAt = Number(Item.expiresAt);
  // the new subscription first: the connection never misses a change of its new scope
  await putSubscription(scope, connectionId, expiresAt);
  try {
    await doc.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: connectionKey(connectionId),
        UpdateExpression: 'SET #filter = :filter, scopeKey = :scopeKey',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#filter': 'filter' },
        ExpressionAttributeValues: { ':filter': scope.filter, ':scopeKey': scope.scopeKey },
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    await deleteSubscription(scope.scopeKey, connectionId); // disconnected meanwhile
    return false;
  }
  if (Item.scopeKey !== scope.scopeKey) await deleteSubscription(String(Item.scopeKey), connectionId);
  return true;
};

/** Forgets a connection (closed, or found gone by a push) and its subscription. */
export const close = async (connectionId: string, alsoScopeKey?: string): Promise<void> => {
  const { Attributes } = await doc.send(new DeleteCommand({ TableName: tableName(), Key: connectionKey(connectionId), ReturnValues: 'ALL_OLD' }));
  const scopeKeys = new Set([Attributes?.scopeKey, alsoScopeKey].filter((key): key is string => typeof key === 'string'));
  await Promise.all([...scopeKeys].map((key) => deleteSubscription(key, connectionId)));
};

/** The connection's stored scope, if registered (tests and operators). */
export const find = async (connectionId: string): Promise<(Scoped & { expiresAt: number }) | undefined> => {
  const { Item } = await doc.send(new GetCommand({ TableName: tableName(), Key: connectionKey(connectionId), ConsistentRead: true }));
  return Item ? { filter: toFilter(Item.filter), scopeKey: String(Item.scopeKey), expiresAt: Number(Item.expiresAt) } : undefined;
};

/** Unexpired subscribers of one scope key: one Query of its partition (paged), O(subscribers found). */
export const subscribersOf = async (scopeKey: string): Promise<Subscriber[]> => {
  const now = nowSeconds();
  const found: Subscriber[] = [];
  let ExclusiveStartKey: Item | undefined;
  do {
    const page = await doc.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk',
        FilterExpression: 'expiresAt > :now',
        ProjectionExpression: 'SK',
        ExpressionAttributeValues: { ':pk': subscriptionKey(scopeKey, '').PK, ':now': now },
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) found.push({ connectionId: String(item.SK), scopeKey });
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return found;
};

/** Unexpired subscribers of the given scope keys: one Query per key, in parallel. */
export const subscribers = async (scopeKeys: readonly string[]): Promise<Subscriber[]> => {
  return (await Promise.all(scopeKeys.map((key) => subscribersOf(key)))).flat();
};
