import type { HistoryFilter, HistoryRecord } from '#lib/alarms/pure/history';
import type { PlaceFilter } from '#lib/shared/access';
import { HistoryByDeviceEntity, HistoryByPlaceEntity, historyPk } from '#lib/alarms/entities';
import { and, equal, expr, type Expr } from '#lib/store/expression';
import { descendingPage, mapPage, queryPage, shardsOf, type DescendingPartition, type Page } from '#lib/store/paging';
import { lastKeyOf } from '#lib/store/query';
import { batchWrite, putRequest } from '#lib/store/table';
import { withinCondition } from '#lib/store/within';

// Two items per cleared alarm, a key for every question, sorted by clearedAt (docs/guide/rules/alarms.md and docs/guide/rules/access.md).
const { fromItem } = HistoryByDeviceEntity;

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

/** The partitions of a history question (a sharded key's K shards), the filters the key does not narrow as conditions. */
const historyPartitions = (filter: HistoryFilter, now: number, within?: Expr): { key: HistoryKey; partitions: DescendingPartition[] } => {
  const key = keyFor(filter);
  const rest = NARROWING.filter((field) => filter[field] !== undefined && !key.narrowed.includes(field));
  const others = equal(Object.fromEntries(rest.map((field) => [field, filter[field]])));
  const partition = {
    ...(key.index ? { index: key.index } : {}),
    pk: key.pk,
    range: { from: filter.from, to: lastKeyOf(filter.to) },
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
  const items = records.flatMap(({ record, expiresAt }) => [HistoryByDeviceEntity, HistoryByPlaceEntity].map((item) => item.item(record, { ...record, expiresAt })));
  await batchWrite(items.map(putRequest), { inFlight: 8 });
};

/** One page of one partition, or of several (a sharded key's shards, places) merged newest first. */
const pageOf = async (merged: boolean | undefined, partitions: DescendingPartition[], identity: string, limit: number, cursor?: string): Promise<Page<HistoryRecord>> => {
  const { range, ...partition } = partitions[0]!;
  const page = merged
    ? await descendingPage(partitions, limit, cursor, identity)
    : await queryPage({ ...partition, descending: true, sk: expr('#sk BETWEEN :from AND :to', { from: range!.from, to: range!.to }) }, identity, limit, cursor);
  return mapPage(page, fromItem);
};

/** One page of cleared alarms, newest first, from the key built for the filter. */
export const query = async (filter: HistoryFilter, limit: number, cursor?: string): Promise<Page<HistoryRecord>> => {
  const { key, partitions } = historyPartitions(filter, Date.now());
  // a cursor holds to the key and the narrowing it was answered for; the time window may move
  const pk = { [key.index ? `${key.index}PK` : 'PK']: key.pk };
  return pageOf(key.sharded, partitions, `alarmHistory ${JSON.stringify([pk, NARROWING.map((field) => filter[field] ?? null)])}`, limit, cursor);
};

/** One page within a scoped caller's disjoint places: one place's key, or the device/watcher key kept to them, or each place's key merged (docs/guide/rules/access.md "Scoped alarm history reads the keys of its places, merged newest first"). */
export const queryWithin = async (filter: HistoryFilter, within: readonly PlaceFilter[], limit: number, cursor?: string): Promise<Page<HistoryRecord>> => {
  if (within.length === 1) return query({ ...filter, ...within[0] }, limit, cursor);
  const identity = `alarmHistory within ${JSON.stringify([NARROWING.map((field) => filter[field] ?? null), within])}`;
  const withinAccessScope = withinCondition(within);
  const now = Date.now();
  if (filter.devicesn !== undefined || filter.watcherId !== undefined || !withinAccessScope) {
    const { key, partitions } = historyPartitions(filter, now, withinAccessScope);
    return pageOf(key.sharded, partitions, identity, limit, cursor);
  }
  return pageOf(true, within.flatMap((place) => historyPartitions({ ...filter, ...place }, now).partitions), identity, limit, cursor);
};
