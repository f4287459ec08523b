import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Delivery, DeliveryDraft, DeliveryView, Digest, NotificationType, Target } from '#lib/notify/types';
import { doc, tableName } from '#lib/store/client';
import { isConditionFailed, type Item } from './helpers';
import { queryPage, type Page } from './pages';
import { allShards, shardKey } from './shards';

/*
 * One item per delivery (a digest to one target), keyed by its deterministic id, so storing
 * the same delivery twice is a no-op (outbox pattern). GSI1 (`CHANNEL#<id>#DELIVERIES`, by
 * time) is a channel's delivery log, newest first. GSI2 (`DELIVERIES#DUE`, by next attempt)
 * holds only deliveries still to be attempted: the notifier reads what is due from it. The due
 * index is sharded by delivery id (`DELIVERIES#DUE#<n>`, lib/db/shards.ts): `due` asks every
 * shard, and the unsharded key deliveries stored before the shards still sit under, for its
 * earliest and keeps the earliest overall. Deliveries expire 30 days after they were made (TTL); readers treat expired ones as absent.
 */
const DUE = 'DELIVERIES#DUE';
const KEEP_SECONDS = 30 * 24 * 60 * 60;
const keys = (id: string) => ({ PK: `DELIVERY#${id}`, SK: 'DELIVERY' });
const logPk = (channelId: string) => `CHANNEL#${channelId}#DELIVERIES`;
const dueSk = (at: string, id: string) => `${at}#${id}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

const toView = (item: Item): DeliveryView => ({
  deliveryId: String(item.deliveryId),
  type: item.notificationType as NotificationType,
  at: String(item.createdAt),
  attempts: Number(item.attempts ?? 0),
  status: item.status as DeliveryView['status'],
  ...(typeof item.lastResponseStatus === 'number' ? { lastResponseStatus: item.lastResponseStatus } : {}),
  ...(typeof item.nextAttemptAt === 'string' ? { nextAttemptAt: item.nextAttemptAt } : {}),
});

const fromItem = (item: Item): Delivery & { dueKey?: string } => ({
  ...toView(item),
  digest: item.digest as Digest,
  target: item.target as Target,
  ...(typeof item.firstAttemptAt === 'string' ? { firstAttemptAt: item.firstAttemptAt } : {}),
  ...(typeof item.GSI2SK === 'string' ? { dueKey: item.GSI2SK } : {}),
});

/** A delivery read from the due index, with the index position it was read at (for `claim`). */
export type DueDelivery = Delivery & { dueKey?: string };

const update = async (input: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName'>): Promise<boolean> => {
  try {
    await doc.send(new UpdateCommand({ ...input, TableName: tableName() }));
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
};

export type Settlement =
  | { status: 'delivered' | 'failed'; at: string; responseStatus?: number; error?: string }
  | { status: 'retrying'; at: string; nextAttemptAt: string; responseStatus?: number; error?: string };

/** Stores a delivery unless one with its id exists (then false): due now, or suppressed. */
const itemOf = (draft: DeliveryDraft, createdAt: string): Item => ({
    ...keys(draft.id),
    type: 'Delivery',
    deliveryId: draft.id,
    notificationType: draft.digest.type,
    digest: draft.digest,
    target: draft.target,
    status: draft.status,
    attempts: 0,
    createdAt,
    expiresAt: Math.floor(Date.parse(createdAt) / 1000) + KEEP_SECONDS,
    ...(draft.target.kind === 'channel' ? { GSI1PK: logPk(draft.target.channelId), GSI1SK: `${createdAt}#${draft.id}` } : {}),
    ...(draft.status === 'pending' ? { GSI2PK: shardKey(DUE, draft.id), GSI2SK: dueSk(createdAt, draft.id), nextAttemptAt: createdAt } : {}),
});

/**
 * A delivery `createIfAbsent` stored, as `due` would answer it: the notifier attempts what it
 * just stored without finding it again through the due index, which lags (DESIGN §3).
 */
export const asStored = (draft: DeliveryDraft, createdAt: string): DueDelivery => fromItem(itemOf(draft, createdAt));

export const createIfAbsent = async (draft: DeliveryDraft, createdAt: string): Promise<boolean> => {
  const item = itemOf(draft, createdAt);
  try {
    await doc.send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' }));
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
};

/** Deliveries whose next attempt is due at `now`, earliest first (up to `limit` of every shard, merged). */
export const due = async (now: string, limit: number): Promise<DueDelivery[]> => {
  const perShard = await Promise.all(
    [...allShards(DUE), DUE].map(async (pk) => {
      const { Items } = await doc.send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'GSI2',
          KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK <= :now',
          ExpressionAttributeValues: { ':pk': pk, ':now': `${now}#\uffff` },
          Limit: limit,
        }),
      );
      return (Items ?? []) as Item[];
    }),
  );
  const earliest = perShard.flat().sort((a, b) => (String(a.GSI2SK) < String(b.GSI2SK) ? -1 : String(a.GSI2SK) > String(b.GSI2SK) ? 1 : 0));
  return earliest.slice(0, limit).map(fromItem);
};

/**
 * Takes a due delivery for one attempt: counts the attempt and moves its due time `leaseMs`
 * ahead, on condition that nobody moved it since it was read. Only one sender wins; one that
 * crashes mid-attempt leaves it due again when the lease ends.
 */
export const claim = async (delivery: DueDelivery, now: string, leaseUntil: string): Promise<boolean> => {
  if (!delivery.dueKey) return false;
  return update({
    Key: keys(delivery.deliveryId),
    UpdateExpression: 'SET #attempts = #attempts + :one, GSI2SK = :lease, #first = if_not_exists(#first, :now), #last = :now',
    ConditionExpression: 'GSI2SK = :read',
    ExpressionAttributeNames: { '#attempts': 'attempts', '#first': 'firstAttemptAt', '#last': 'lastAttemptAt' },
    ExpressionAttributeValues: { ':one': 1, ':lease': dueSk(leaseUntil, delivery.deliveryId), ':now': now, ':read': delivery.dueKey },
  });
};

/** Records an attempt's outcome: done (out of the due index) or due again at `nextAttemptAt`. */
export const settle = async (id: string, outcome: Settlement): Promise<void> => {
  const names: Record<string, string> = { '#status': 'status', '#at': 'settledAt' };
  const values: Record<string, unknown> = { ':status': outcome.status, ':at': outcome.at };
  const sets = ['#status = :status', '#at = :at'];
  const removes: string[] = [];
  const put = (field: string, value: unknown) => {
    names[`#${field}`] = field;
    if (value === undefined) removes.push(`#${field}`);
    else {
      values[`:${field}`] = value;
      sets.push(`#${field} = :${field}`);
    }
  };
  put('lastResponseStatus', outcome.responseStatus);
  put('lastError', outcome.error);
  if (outcome.status === 'retrying') {
    put('nextAttemptAt', outcome.nextAttemptAt);
    put('GSI2SK', dueSk(outcome.nextAttemptAt, id));
  } else {
    put('nextAttemptAt', undefined);
    put('GSI2PK', undefined);
    put('GSI2SK', undefined);
    if (outcome.status === 'delivered') put('deliveredAt', outcome.at);
  }
  await doc.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys(id),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
};

export const get = async (id: string): Promise<DueDelivery | undefined> => {
  const { Item } = await doc.send(new GetCommand({ TableName: tableName(), Key: keys(id), ConsistentRead: true }));
  return Item && !(typeof Item.expiresAt === 'number' && Item.expiresAt <= nowSeconds()) ? fromItem(Item) : undefined;
};

/** One delivery as the log shows it. */
export const view = async (id: string): Promise<DeliveryView | undefined> => {
  const found = await get(id);
  return found ? toView({ ...found, notificationType: found.type, createdAt: found.at }) : undefined;
};

/** A channel's deliveries, newest first, one page (expired ones left out). */
export const log = async (channelId: string, limit: number, cursor?: string): Promise<Page<DeliveryView>> => {
  const page = await queryPage(
    {
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      FilterExpression: 'attribute_not_exists(expiresAt) OR expiresAt > :now',
      ExpressionAttributeValues: { ':pk': logPk(channelId), ':now': nowSeconds() },
      ScanIndexForward: false,
    },
    { keyAttributes: ['PK', 'SK', 'GSI1PK', 'GSI1SK'], partition: { GSI1PK: logPk(channelId) }, query: `deliveries ${channelId}` },
    limit,
    cursor,
  );
  return { items: page.items.map(toView), nextCursor: page.nextCursor };
};
