import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ServiceUnavailable } from '#lib/errors';
import { inScope, type Scope } from '#lib/devices/deviceScope';
import { rollUp, roomStatusOf, sameAggregate } from '#lib/devices/rollup';
import type { Place, RoomAggregate, RoomStatus, Severity, StoredDevice } from '#lib/devices/types';
import { announceStored } from './changes';
import { doc, tableName } from './client';
import { devices, roomId } from './devices';
import { isConditionFailed, type Item } from './helpers';
import { queryShards, shardKey } from './shards';

/*
 * One aggregate item per room that holds devices, in the `ROOMS#<shard>` partitions (K shards,
 * by room identity) sorted by region#location#room; GSI1 sorts the same items by location
 * first, GSI2 by room name first (same shard). Any scope is then one Query per shard over the
 * rooms in (or very near) that scope, in parallel, never over devices.
 */
const ROOMS = 'ROOMS';
const BY_LOCATION = 'ROOMS#BY_LOCATION';
const BY_NAME = 'ROOMS#BY_NAME';
const enc = encodeURIComponent;
const keys = (place: Place) => ({ PK: shardKey(ROOMS, roomId(place)), SK: roomId(place) });

/**
 * How many devices of the room have each worst severity (`sev1`..`sev4`): what lets the alarm
 * engine move a room's status by a delta, without reading the room's devices.
 */
const SEVERITY_LEVELS: Severity[] = [1, 2, 3, 4];
const severityCounts = (members: readonly Pick<StoredDevice, 'alarmSeverity'>[]): Item =>
  Object.fromEntries(SEVERITY_LEVELS.map((level) => [`sev${level}`, members.filter((m) => m.alarmSeverity === level).length]));
const sameSeverityCounts = (item: Item, counts: Item) => SEVERITY_LEVELS.every((level) => item[`sev${level}`] === counts[`sev${level}`]);
const statusOfCounts = (item: Item): RoomStatus => roomStatusOf(SEVERITY_LEVELS.filter((level) => Number(item[`sev${level}`] ?? 0) > 0));

const toItem = (aggregate: RoomAggregate, version: number): Item => ({
  ...keys(aggregate),
  GSI1PK: shardKey(BY_LOCATION, roomId(aggregate)),
  GSI1SK: `${enc(aggregate.location)}#${enc(aggregate.region)}#${enc(aggregate.room)}`,
  GSI2PK: shardKey(BY_NAME, roomId(aggregate)),
  GSI2SK: `${enc(aggregate.room)}#${enc(aggregate.region)}#${enc(aggregate.location)}`,
  type: 'RoomAggregate',
  region: aggregate.region,
  location: aggregate.location,
  room: aggregate.room,
  deviceCount: aggregate.deviceCount,
  online: aggregate.online,
  offline: aggregate.offline,
  roomStatus: aggregate.roomStatus,
  version,
  updatedAt: new Date().toISOString(),
});

const fromItem = (item: Item): RoomAggregate => ({
  region: String(item.region),
  location: String(item.location),
  room: String(item.room),
  deviceCount: Number(item.deviceCount),
  online: Number(item.online),
  offline: Number(item.offline),
  roomStatus: String(item.roomStatus) as RoomStatus,
});

const FIELDS = ['region', 'location', 'room', 'deviceCount', 'online', 'offline', 'roomStatus'];
const projection = {
  ProjectionExpression: FIELDS.map((_, i) => `#p${i}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(FIELDS.map((field, i) => [`#p${i}`, field])),
};

/** Leading names that are fixed, as a key prefix: `a#b#` for [a, b, undefined], `a#b#c` for all three. */
const prefix = (...names: (string | undefined)[]) => {
  const fixed: string[] = [];
  for (const name of names) {
    if (name === undefined) break;
    fixed.push(enc(name));
  }
  if (fixed.length === 0) return '';
  return fixed.length === 3 ? fixed.join('#') : `${fixed.join('#')}#`;
};

/** The narrowest of the three orderings for a scope: by room name, by location, or by region. */
const scopeQuery = (scope: Scope): { base: string; query: (pk: string) => Omit<QueryCommandInput, 'TableName'> } => {
  const [index, pkName, skName, base, sk] =
    scope.room !== undefined
      ? ['GSI2', 'GSI2PK', 'GSI2SK', BY_NAME, prefix(scope.room, scope.region, scope.region !== undefined ? scope.location : undefined)]
      : scope.location !== undefined
        ? ['GSI1', 'GSI1PK', 'GSI1SK', BY_LOCATION, prefix(scope.location, scope.region)]
        : [undefined, 'PK', 'SK', ROOMS, prefix(scope.region)];
  return {
    base,
    query: (pk) => ({
      ...(index ? { IndexName: index } : {}),
      KeyConditionExpression: sk ? '#pk = :pk AND begins_with(#sk, :sk)' : '#pk = :pk',
      ExpressionAttributeNames: { ...projection.ExpressionAttributeNames, '#pk': pkName, ...(sk ? { '#sk': skName } : {}) },
      ExpressionAttributeValues: { ':pk': pk, ...(sk ? { ':sk': sk } : {}) },
      ProjectionExpression: projection.ProjectionExpression,
    }),
  };
};

const byPlace = (a: RoomAggregate, b: RoomAggregate) => (roomId(a) < roomId(b) ? -1 : roomId(a) > roomId(b) ? 1 : 0);

const MAX_ATTEMPTS = 6;

export const rooms = {
  /** The aggregates of every room in scope that holds devices, sorted by region, location, room. */
  async inScope(scope: Scope): Promise<RoomAggregate[]> {
    const { base, query } = scopeQuery(scope);
    const items = await queryShards(base, query);
    return items.map(fromItem).filter((room) => inScope(scope, room)).sort(byPlace);
  },

  /**
   * Recomputes one room's aggregate from its devices (one Query of one partition) and writes it
   * under a version condition; removes it when the room has no devices left. Call after every
   * change to a device of the room (sync, refresh, alarm engine). Idempotent. `beforeWrite`
   * runs before a changed aggregate is written (device count 0: removed), so that what it
   * records from the aggregate is never behind a written one (a retry repeats it).
   */
  async recompute(place: Place, beforeWrite?: BeforeWrite): Promise<RoomAggregate | undefined> {
    return (await rooms.recomputeChange(place, beforeWrite)).after;
  },

  /** The stored items of these rooms (eventually consistent BatchGetItem: a stale one only fails its version check). */
  async items(places: readonly Place[]): Promise<Map<string, Item>> {
    const found = new Map<string, Item>();
    for (let start = 0; start < places.length; start += 100) {
      let pending: Record<string, unknown>[] = places.slice(start, start + 100).map(keys);
      while (pending.length > 0) {
        const answer = await doc.send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending } } }));
        for (const item of answer.Responses?.[tableName()] ?? []) found.set(String(item.SK), item);
        pending = (answer.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
      }
    }
    return found;
  },

  /**
   * Moves a room's status by the severity shifts of its devices, from its item as read by
   * `items` (per-severity counts, then the status they imply, one write under its version): no
   * read of the room's devices. Falls back to `recomputeChange` where that cannot be done.
   */
  async shiftSeverities(place: Place, item: Item | undefined, moves: readonly { from?: Severity; to?: Severity }[]): Promise<RoomChange> {
    return (await shift(place, item, moves)) ?? rooms.recomputeChange(place);
  },

  /**
   * As `recompute`, answering the aggregate the write replaced and the one it wrote (equal, or
   * both absent, when nothing changed): exact, since the write is conditioned on what was read.
   */
  async recomputeChange(place: Place, beforeWrite?: BeforeWrite): Promise<RoomChange> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const { Item: current } = await doc.send(new GetCommand({ TableName: tableName(), Key: keys(place), ConsistentRead: true }));
      const members = await devices.inRoom(place);
      const aggregate = rollUp(place, members);
      const before = current ? fromItem(current) : undefined;
      const version = Number(current?.version ?? 0);
      const guard = current
        ? { ConditionExpression: '#version = :version', ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':version': version } }
        : { ConditionExpression: 'attribute_not_exists(PK)' };
      try {
        if (beforeWrite && (!current || !sameAggregate(fromItem(current), aggregate))) await beforeWrite(aggregate);
        if (aggregate.deviceCount === 0) {
          if (current) {
            await doc.send(new DeleteCommand({ TableName: tableName(), Key: keys(place), ...guard }));
            await announceStored({ kind: 'room', at: new Date().toISOString(), room: aggregate });
          }
          return { place, before, after: undefined };
        }
        const counts = severityCounts(members);
        if (before && current && sameAggregate(before, aggregate) && sameSeverityCounts(current, counts)) return { place, before, after: before };
        await doc.send(new PutCommand({ TableName: tableName(), Item: { ...toItem(aggregate, version + 1), ...counts }, ...guard }));
        if (!before || !sameAggregate(before, aggregate)) await announceStored({ kind: 'room', at: new Date().toISOString(), room: aggregate });
        return { place, before, after: aggregate };
      } catch (error) {
        if (!isConditionFailed(error)) throw error;
      }
    }
    throw new ServiceUnavailable(`room ${place.room} kept changing while its counts were recomputed; retry`);
  },
};

/**
 * Moves a room read at `item` by its devices' severity shifts: the new per-severity counts and
 * the status they imply, in one write under the version it was read at. Undefined when it must
 * be recomputed instead (no counts yet, counts that would go negative, or moved meanwhile).
 */
const shift = async (place: Place, item: Item | undefined, moves: readonly { from?: Severity; to?: Severity }[]): Promise<RoomChange | undefined> => {
  if (!item || SEVERITY_LEVELS.some((level) => typeof item[`sev${level}`] !== 'number')) return undefined;
  const counts: Item = Object.fromEntries(SEVERITY_LEVELS.map((level) => [`sev${level}`, Number(item[`sev${level}`])]));
  for (const { from, to } of moves) {
    if (from !== undefined) counts[`sev${from}`] = Number(counts[`sev${from}`]) - 1;
    if (to !== undefined) counts[`sev${to}`] = Number(counts[`sev${to}`]) + 1;
  }
  if (SEVERITY_LEVELS.some((level) => Number(counts[`sev${level}`]) < 0)) return undefined;
  const before = fromItem(item);
  if (sameSeverityCounts(item, counts)) return { place, before, after: before };
  const after = { ...before, roomStatus: statusOfCounts(counts) };
  try {
    await doc.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys(place),
        UpdateExpression: `SET ${SEVERITY_LEVELS.map((level) => `#sev${level} = :sev${level}`).join(', ')}, #status = :status, #version = :next`,
        ConditionExpression: '#version = :version',
        ExpressionAttributeNames: { '#status': 'roomStatus', '#version': 'version', ...Object.fromEntries(SEVERITY_LEVELS.map((level) => [`#sev${level}`, `sev${level}`])) },
        ExpressionAttributeValues: {
          ':status': after.roomStatus,
          ':version': item.version,
          ':next': Number(item.version) + 1,
          ...Object.fromEntries(SEVERITY_LEVELS.map((level) => [`:sev${level}`, counts[`sev${level}`]])),
        },
      }),
    );
    await announceStored({ kind: 'room', at: new Date().toISOString(), room: after });
    return { place, before, after };
  } catch (error) {
    if (isConditionFailed(error)) return undefined;
    throw error;
  }
};

/** What runs before a changed aggregate is written (the availability rollup). */
export type BeforeWrite = (aggregate: RoomAggregate) => Promise<void>;

/** One room's aggregate before and after a recompute (absent: the room holds no devices). */
export interface RoomChange {
  place: Place;
  before?: RoomAggregate;
  after?: RoomAggregate;
}
