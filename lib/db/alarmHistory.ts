import type { HistoryFilter, HistoryRecord } from '#lib/alarms/pure/history';
import type { PlaceFilter } from '#lib/shared/access';
import { HistoryByDevice, HistoryByPlace, historyPk } from '#lib/store/entities/alarms';
import { and, equal, expr, type Expr } from '#lib/store/expression';
import { descendingPage, queryPage, shardsOf, type DescendingPartition, type Page } from '#lib/store/paging';
import { batchWrite, putRequest } from '#lib/store/table';
import { withinCondition } from '#lib/store/within';

/*
 * Each cleared alarm is written as two items (lib/store/entities/alarms.ts), so that every
 * question has a key built for it: by device, room, watcher (the first), by location, region,
 * everything (the second). Sort keys start with clearedAt, so a time window is a key condition
 * and newest-first is the index order. Both puts are idempotent (same keys for the same clear).
 * `expiresAt` is the TTL. The two keys that take a whole region's or the whole fleet's clears
 * are sharded by pair: a page asks every shard for its newest below the cursor.
 */
const { fromItem } = HistoryByDevice;

interface HistoryKey {
  index?: 'GSI1' | 'GSI2';
  pk: string;
  narrowed: (keyof HistoryFilter)[];
  sharded?: true;
}

/** The narrowest key for a filter: device, room, watcher, location, region, or everything. */
const keyFor = (filter: HistoryFilter): HistoryKey => {
  const { devicesn, region, location, room, watcherId } = filter;
  if (devicesn !== undefined) return { pk: historyPk.device(devicesn), narrowed: ['devicesn'] };
  if (region !== undefined && location !== undefined && room !== undefined) return { index: 'GSI1', pk: historyPk.room({ region, location, room }), narrowed: ['region', 'location', 'room'] };
  if (watcherId !== undefined) return { index: 'GSI2', pk: historyPk.watcher(watcherId), narrowed: ['watcherId'] };
  if (region !== undefined && location !== undefined) return { pk: historyPk.location({ region, location }), narrowed: ['region', 'location'] };
  if (region !== undefined) return { index: 'GSI1', pk: historyPk.region(region), narrowed: ['region'], sharded: true };
  return { index: 'GSI2', pk: historyPk.all(), narrowed: [], sharded: true };
};

const NARROWING = ['devicesn', 'region', 'location', 'room', 'watcherId'] as const;

/**
 * The partitions of a history question, each read newest first in its window: the key built for
 * it (a sharded key's K shards), the expiry and the filters the key does
 * not narrow as conditions within that key (`within`: also only those places).
 */
const historyPartitions = (filter: HistoryFilter, now: number, within?: Expr): { key: HistoryKey; partitions: DescendingPartition[] } => {
  const key = keyFor(filter);
  const rest = NARROWING.filter((field) => filter[field] !== undefined && !key.narrowed.includes(field));
  const others = equal(Object.fromEntries(rest.map((field) => [field, filter[field]])));
  const partition = {
    ...(key.index ? { index: key.index } : {}),
    pk: key.pk,
    range: { from: filter.from, to: `${filter.to}#\uffff` },
    filter: and(expr('#expiresAt > :now', { now: Math.floor(now / 1000) }), others, within)!,
  };
  return { key, partitions: key.sharded ? shardsOf(partition) : [partition] };
};

/** Stores the history record of one cleared alarm (both items; idempotent). */
export const write = async (record: HistoryRecord, expiresAt: number): Promise<void> => {
  await writeAll([{ record, expiresAt }]);
};

/** Stores many history records (both items each; idempotent), 25 items a request, 8 requests in flight. */
export const writeAll = async (records: readonly { record: HistoryRecord; expiresAt: number }[]): Promise<void> => {
  const items = records.flatMap(({ record, expiresAt }) => [HistoryByDevice, HistoryByPlace].map((item) => item.item(record, { ...record, expiresAt })));
  await batchWrite(items.map(putRequest), { inFlight: 8 });
};

/** One page of one partition, or of the shards of a sharded key merged newest first. */
const pageOf = async (key: HistoryKey, partitions: DescendingPartition[], identity: string, limit: number, cursor?: string): Promise<Page<HistoryRecord>> => {
  const { range, ...partition } = partitions[0]!;
  const page = key.sharded
    ? await descendingPage(partitions, limit, cursor, identity)
    : await queryPage({ ...partition, descending: true, sk: expr('#sk BETWEEN :from AND :to', { from: range!.from, to: range!.to }) }, identity, limit, cursor);
  return { items: page.items.map(fromItem), nextCursor: page.nextCursor };
};

/** One page of cleared alarms, newest first, from the key built for the filter. */
export const query = async (filter: HistoryFilter, limit: number, cursor?: string): Promise<Page<HistoryRecord>> => {
  const { key, partitions } = historyPartitions(filter, Date.now());
  // a cursor holds to the key and the narrowing it was answered for; the time window may move
  const pk = { [key.index ? `${key.index}PK` : 'PK']: key.pk };
  return pageOf(key, partitions, `alarmHistory ${JSON.stringify([pk, NARROWING.map((field) => filter[field] ?? null)])}`, limit, cursor);
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
    const { key, partitions } = historyPartitions(filter, now, inScope);
    return pageOf(key, partitions, identity, limit, cursor);
  }
  const partitions = within.flatMap((place) => historyPartitions({ ...filter, ...place }, now).partitions);
  const page = await descendingPage(partitions, limit, cursor, identity);
  return { items: page.items.map(fromItem), nextCursor: page.nextCursor };
};
