import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ServiceUnavailable } from '#lib/errors';
import { inScope, type Scope } from '#lib/devices/filter';
import { rollUp, roomStatusOf, sameAggregate } from '#lib/devices/rollup';
import type { Place, RoomAggregate, RoomStatus, Severity, StoredDevice } from '#lib/devices/types';
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
   * change to a device of the room (sync, refresh, alarm engine). Idempotent.
   */
  async recompute(place: Place): Promise<RoomAggregate | undefined> {
    return (await rooms.recomputeChange(place)).after;
  },

  /**
   * Moves a room's status by the severity shifts of its devices (ADD to its per-severity
   * counts, then the status they imply under the version the ADD returned): no read of the
   * room's devices. Falls back to `recomputeChange` for a room that has no counts.
   */
  async shiftSeverities(place: Place, moves: readonly { from?: Severity; to?: Severity }[]): Promise<RoomChange> {
    return (await shift(place, moves)) ?? rooms.recomputeChange(place);
  },

  /**
   * As `recompute`, answering the aggregate the write replaced and the one it wrote (equal, or
   * both absent, when nothing changed): exact, since the write is conditioned on what was read.
   */
  async recomputeChange(place: Place): Promise<RoomChange> {
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
        if (aggregate.deviceCount === 0) {
          if (current) await doc.send(new DeleteCommand({ TableName: tableName(), Key: keys(place), ...guard }));
          return { place, before, after: undefined };
        }
        const counts = severityCounts(members);
        if (before && current && sameAggregate(before, aggregate) && sameSeverityCounts(current, counts)) return { place, before, after: before };
        await doc.send(new PutCommand({ TableName: tableName(), Item: { ...toItem(aggregate, version + 1), ...counts }, ...guard }));
        return { place, before, after: aggregate };
      } catch (error) {
        if (!isConditionFailed(error)) throw error;
      }
    }
    throw new ServiceUnavailable(`room ${place.room} kept changing while its counts were recomputed; retry`);
  },
};

/** Moves a room by its devices' severity shifts; undefined when it must be recomputed instead. */
const shift = async (place: Place, moves: readonly { from?: Severity; to?: Severity }[]): Promise<RoomChange | undefined> => {
  const delta = new Map<Severity, number>();
  for (const { from, to } of moves) {
    if (from !== undefined) delta.set(from, (delta.get(from) ?? 0) - 1);
    if (to !== undefined) delta.set(to, (delta.get(to) ?? 0) + 1);
  }
  const adds = [...delta].filter(([, n]) => n !== 0);
  try {
    const { Attributes: moved = {} } = await doc.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys(place),
        UpdateExpression: `ADD ${[...adds.map(([level]) => `#sev${level} :sev${level}`), '#version :one'].join(', ')}`,
        ConditionExpression: `attribute_exists(PK) AND ${SEVERITY_LEVELS.map((level) => `attribute_exists(#sev${level})`).join(' AND ')}`,
        ExpressionAttributeNames: { '#version': 'version', ...Object.fromEntries(SEVERITY_LEVELS.map((level) => [`#sev${level}`, `sev${level}`])) },
        ExpressionAttributeValues: { ':one': 1, ...Object.fromEntries(adds.map(([level, n]) => [`:sev${level}`, n])) },
        ReturnValues: 'ALL_NEW',
      }),
    );
    const before = fromItem(moved);
    const status = statusOfCounts(moved);
    if (SEVERITY_LEVELS.some((level) => Number(moved[`sev${level}`]) < 0)) return undefined;
    if (status === before.roomStatus) return { place, before, after: before };
    await doc.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys(place),
        UpdateExpression: 'SET #status = :status ADD #version :one',
        ConditionExpression: '#version = :version',
        ExpressionAttributeNames: { '#status': 'roomStatus', '#version': 'version' },
        ExpressionAttributeValues: { ':status': status, ':one': 1, ':version': moved.version },
      }),
    );
    return { place, before, after: { ...before, roomStatus: status } };
  } catch (error) {
    // a room without counts (absent, or written before they existed), or moved meanwhile: that writer sets the status
    if (isConditionFailed(error)) return undefined;
    throw error;
  }
};

/** One room's aggregate before and after a recompute (absent: the room holds no devices). */
export interface RoomChange {
  place: Place;
  before?: RoomAggregate;
  after?: RoomAggregate;
}
