import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { HistoryFilter, HistoryRecord } from '#lib/alarms/history';
import type { PlaceFilter } from '#lib/shared/access';
import { batchWrite, type Item } from './helpers';
import { queryPage, type Page } from './pages';
import { allShards, queryPartitionsDescending, queryShardsDescending, shardKey, type DescendingPartition, type ShardedIndex } from './shards';
import { withinCondition } from '#lib/store/within';

/*
 * Each cleared alarm is written as two items, so that every question has a key built for it:
 *   by device  PK  ALARMHIST#DEVICE#<sn>                 SK      <clearedAt>#<watcherId>
 *   by room    GSI1 ALARMHIST#ROOM#<region>#<loc>#<room> GSI1SK  <clearedAt>#<watcherId>#<sn>
 *   by watcher GSI2 ALARMHIST#WATCHER#<watcherId>        GSI2SK  <clearedAt>#<sn>
 *   by location PK ALARMHIST#LOCATION#<region>#<loc>     SK      <clearedAt>#<watcherId>#<sn>
 *   by region  GSI1 ALARMHIST#REGION#<region>            GSI1SK  <clearedAt>#<watcherId>#<sn>
 *   everything GSI2 ALARMHIST#ALL                        GSI2SK  <clearedAt>#<watcherId>#<sn>
 * Sort keys start with clearedAt, so a time window is a key condition and newest-first is the
 * index order. Both puts are idempotent (same keys for the same clear). `expiresAt` is the TTL.
 * The two keys that take a whole region's or the whole fleet's clears are sharded by pair
 * (`ALARMHIST#REGION#<region>#<n>`, `ALARMHIST#ALL#<n>`, lib/db/shards.ts): a page asks every
 * shard, and the unsharded key older records sit under, for its newest below the cursor.
 */
const enc = encodeURIComponent;
const P = 'ALARMHIST';
const place = (record: Pick<HistoryRecord, 'region' | 'location'>) => `${enc(record.region)}#${enc(record.location)}`;

const pair = (record: Pick<HistoryRecord, 'watcherId' | 'devicesn'>) => `${record.watcherId}:${record.devicesn}`;

const items = (record: HistoryRecord, expiresAt: number): Item[] => {
  const at = record.clearedAt;
  const sn = enc(record.devicesn);
  const full = { type: 'AlarmHistory', ...record, expiresAt };
  return [
    {
      PK: `${P}#DEVICE#${sn}`,
      SK: `${at}#${record.watcherId}`,
      GSI1PK: `${P}#ROOM#${place(record)}#${enc(record.room)}`,
      GSI1SK: `${at}#${record.watcherId}#${sn}`,
      GSI2PK: `${P}#WATCHER#${record.watcherId}`,
      GSI2SK: `${at}#${sn}`,
      ...full,
    },
    {
      PK: `${P}#LOCATION#${place(record)}`,
      SK: `${at}#${record.watcherId}#${sn}`,
      GSI1PK: shardKey(`${P}#REGION#${enc(record.region)}`, pair(record)),
      GSI1SK: `${at}#${record.watcherId}#${sn}`,
      GSI2PK: shardKey(`${P}#ALL`, pair(record)),
      GSI2SK: `${at}#${record.watcherId}#${sn}`,
      ...full,
    },
  ];
};

const FIELDS = [
  'id', 'watcherId', 'severity', 'devicesn', 'deviceid', 'region', 'location', 'room', 'raisedAt', 'clearedAt', 'reason',
  'durationSeconds', 'description', 'acknowledgedAt', 'acknowledgedBy', 'ackComment', 'notified',
] as const;
const fromItem = (item: Item): HistoryRecord =>
  Object.fromEntries(FIELDS.filter((field) => item[field] !== undefined).map((field) => [field, item[field]])) as unknown as HistoryRecord;

type Key = { index?: 'GSI1' | 'GSI2'; pk: string; sk: 'SK' | 'GSI1SK' | 'GSI2SK'; pkName: string; narrowed: (keyof HistoryFilter)[]; sharded?: true };

/** The narrowest key for a filter: device, room, watcher, location, region, or everything. */
const keyFor = (filter: HistoryFilter): Key => {
  const { devicesn, region, location, room, watcherId } = filter;
  if (devicesn !== undefined) return { pk: `${P}#DEVICE#${enc(devicesn)}`, pkName: 'PK', sk: 'SK', narrowed: ['devicesn'] };
  if (region !== undefined && location !== undefined && room !== undefined) {
    return { index: 'GSI1', pk: `${P}#ROOM#${place({ region, location })}#${enc(room)}`, pkName: 'GSI1PK', sk: 'GSI1SK', narrowed: ['region', 'location', 'room'] };
  }
  if (watcherId !== undefined) return { index: 'GSI2', pk: `${P}#WATCHER#${watcherId}`, pkName: 'GSI2PK', sk: 'GSI2SK', narrowed: ['watcherId'] };
  if (region !== undefined && location !== undefined) {
    return { pk: `${P}#LOCATION#${place({ region, location })}`, pkName: 'PK', sk: 'SK', narrowed: ['region', 'location'] };
  }
  if (region !== undefined) return { index: 'GSI1', pk: `${P}#REGION#${enc(region)}`, pkName: 'GSI1PK', sk: 'GSI1SK', narrowed: ['region'], sharded: true };
  return { index: 'GSI2', pk: `${P}#ALL`, pkName: 'GSI2PK', sk: 'GSI2SK', narrowed: [], sharded: true };
};

const NARROWING = ['devicesn', 'region', 'location', 'room', 'watcherId'] as const;

/** The Query of a history question: a key condition on its key and window; other filters only within that key. */
export const historyQuery = (
  filter: HistoryFilter,
  now: number,
): { input: Omit<QueryCommandInput, 'TableName'>; keyAttributes: string[]; sharded?: ShardedIndex } => {
  const key = keyFor(filter);
  const rest = NARROWING.filter((field) => filter[field] !== undefined && !key.narrowed.includes(field));
  const names: Record<string, string> = { '#pk': key.pkName, '#sk': key.sk, '#expires': 'expiresAt' };
  const values: Record<string, unknown> = { ':pk': key.pk, ':from': filter.from, ':to': `${filter.to}#\uffff`, ':now': Math.floor(now / 1000) };
  const terms = ['#expires > :now'];
  rest.forEach((field, i) => {
    names[`#f${i}`] = field;
    values[`:f${i}`] = filter[field];
    terms.push(`#f${i} = :f${i}`);
  });
  const keyAttributes = key.index ? ['PK', 'SK', key.pkName, key.sk] : ['PK', 'SK'];
  const { '#pk': _pk, '#sk': _sk, ...filterNames } = names;
  const { ':pk': _pkValue, ':from': _from, ':to': _to, ...filterValues } = values;
  const sharded: ShardedIndex | undefined =
    key.sharded && key.index
      ? { base: key.pk, index: key.index, unsharded: true, range: { from: filter.from, to: `${filter.to}#\uffff` }, FilterExpression: terms.join(' AND '), ExpressionAttributeNames: filterNames, ExpressionAttributeValues: filterValues }
      : undefined;
  return {
    ...(sharded ? { sharded } : {}),
    input: {
      ...(key.index ? { IndexName: key.index } : {}),
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
      FilterExpression: terms.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
    },
    keyAttributes,
  };
};

/** Stores the history record of one cleared alarm (both items; idempotent). */
export const write = async (record: HistoryRecord, expiresAt: number): Promise<void> => {
  await writeAll([{ record, expiresAt }]);
};

/** Stores many history records (both items each; idempotent), 25 items a request, 8 requests in flight. */
export const writeAll = async (records: readonly { record: HistoryRecord; expiresAt: number }[]): Promise<void> => {
  await batchWrite(records.flatMap(({ record, expiresAt }) => items(record, expiresAt).map((Item) => ({ PutRequest: { Item } }))), { inFlight: 8 });
};

/** One page of cleared alarms, newest first, from the key built for the filter. */
export const query = async (filter: HistoryFilter, limit: number, cursor?: string): Promise<Page<HistoryRecord>> => {
  const { input, keyAttributes, sharded } = historyQuery(filter, Date.now());
  // a cursor holds to the key and the narrowing it was answered for; the time window may move
  const pk = { [String(input.ExpressionAttributeNames?.['#pk'])]: String(input.ExpressionAttributeValues?.[':pk']) };
  const narrowing = NARROWING.map((field) => filter[field] ?? null);
  if (sharded) {
    const page = (await queryShardsDescending(sharded, { limit, ...(cursor === undefined ? {} : { cursor }) }, `alarmHistory ${JSON.stringify([pk, narrowing])}`)) as Page<Item>;
    return { items: page.items.map(fromItem), nextCursor: page.nextCursor };
  }
  const page = await queryPage(input, { keyAttributes, partition: pk, query: `alarmHistory ${JSON.stringify([pk, narrowing])}` }, limit, cursor);
  return { items: page.items.map(fromItem), nextCursor: page.nextCursor };
};

/**
 * One page of cleared alarms within a scoped caller's places (`within`, lib/shared/access.ts
 * narrowToScope: disjoint, at least one, each narrower than the filter's own place). One place:
 * the filter narrowed to it, on the key built for it. A device's or a watcher's history: that
 * key, keeping the records of those places. Otherwise each place's own key (a location's
 * partition, a region's shards), merged newest first: O(places), never the whole history.
 */
export const queryWithin = async (filter: HistoryFilter, within: readonly PlaceFilter[], limit: number, cursor?: string): Promise<Page<HistoryRecord>> => {
  if (within.length === 1) return query({ ...filter, ...within[0] }, limit, cursor);
  const identity = `alarmHistory within ${JSON.stringify([NARROWING.map((field) => filter[field] ?? null), within])}`;
  const inScope = withinCondition(within);
  const now = Date.now();
  if (filter.devicesn !== undefined || filter.watcherId !== undefined || !inScope) {
    const { input, keyAttributes } = historyQuery(filter, now);
    const narrowed = inScope
      ? {
          ...input,
          FilterExpression: `${input.FilterExpression} AND ${inScope.expression}`,
          ExpressionAttributeNames: { ...input.ExpressionAttributeNames, ...inScope.names },
          ExpressionAttributeValues: { ...input.ExpressionAttributeValues, ...inScope.values },
        }
      : input;
    const pk = { [String(input.ExpressionAttributeNames?.['#pk'])]: String(input.ExpressionAttributeValues?.[':pk']) };
    const page = await queryPage(narrowed, { keyAttributes, partition: pk, query: identity }, limit, cursor);
    return { items: page.items.map(fromItem), nextCursor: page.nextCursor };
  }
  const partitions = within.flatMap((place) => placePartitions({ ...filter, ...place }, now));
  const page = (await queryPartitionsDescending(partitions, { limit, ...(cursor === undefined ? {} : { cursor }) }, identity)) as Page<Item>;
  return { items: page.items.map(fromItem), nextCursor: page.nextCursor };
};

/** The partitions holding a region's or a location's history (a region's shards and its unsharded key), read by `historyQuery`'s filter. */
const placePartitions = (filter: HistoryFilter, now: number): DescendingPartition[] => {
  const { input, sharded } = historyQuery(filter, now);
  const { '#pk': _pk, '#sk': _sk, ...names } = input.ExpressionAttributeNames ?? {};
  const { ':pk': pk, ':from': _from, ':to': _to, ...values } = input.ExpressionAttributeValues ?? {};
  const common = {
    range: { from: filter.from, to: `${filter.to}#\uffff` },
    FilterExpression: String(input.FilterExpression),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
  if (sharded) return [...allShards(sharded.base), sharded.base].map((shard) => ({ ...common, pk: shard, index: sharded.index }));
  return [{ ...common, pk: String(pk), ...(input.IndexName ? { index: input.IndexName as 'GSI1' | 'GSI2' } : {}) }];
};
