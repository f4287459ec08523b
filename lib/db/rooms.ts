import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Place, RoomAggregate, RoomStatus, Severity, SeverityCounts, StoredRoom } from '#lib/devices/types';
import { announceStored } from './changes';
import { doc, tableName } from '#lib/store/client';
import { roomId } from './place';
import { batchGet, conditionHeld, type Item } from './helpers';
import { queryShards, shardKey } from './shards';

/*
 * One aggregate item per room that holds devices, in the `ROOMS#<shard>` partitions (K shards,
 * by room identity) sorted by region#location#room; GSI1 sorts the same items by location
 * first, GSI2 by room name first (same shard). Any scope is then one Query per shard over the
 * rooms in (or very near) that scope, in parallel, never over devices. What an aggregate holds
 * is decided in lib/devices/rooms.ts; this repository reads and writes it under its version.
 */
const ROOMS = 'ROOMS';
const BY_LOCATION = 'ROOMS#BY_LOCATION';
const BY_NAME = 'ROOMS#BY_NAME';
const enc = encodeURIComponent;
const keys = (place: Place) => ({ PK: shardKey(ROOMS, roomId(place)), SK: roomId(place) });

const SEVERITY_LEVELS: Severity[] = [1, 2, 3, 4];

const toItem = (aggregate: RoomAggregate, severities: SeverityCounts, version: number): Item => ({
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
  ...Object.fromEntries(SEVERITY_LEVELS.map((level) => [`sev${level}`, severities[level]])),
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

const storedOf = (item: Item): StoredRoom => {
  const stored: StoredRoom = { aggregate: fromItem(item), version: Number(item.version ?? 0) };
  if (SEVERITY_LEVELS.every((level) => typeof item[`sev${level}`] === 'number')) {
    stored.severities = { 1: Number(item.sev1), 2: Number(item.sev2), 3: Number(item.sev3), 4: Number(item.sev4) };
  }
  return stored;
};

/** The write's guard: the version it was read at, or absent when it was read absent (version 0). */
const guard = (version: number) =>
  version > 0
    ? { ConditionExpression: '#version = :version', ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':version': version } }
    : { ConditionExpression: 'attribute_not_exists(PK)' };


const FIELDS = ['region', 'location', 'room', 'deviceCount', 'online', 'offline', 'roomStatus'];
const NAME_FIELDS = ['region', 'location', 'room'] as const;

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

/**
 * The narrowest of the three orderings for a scope (by room name, by location, or by region),
 * and a filter on every name the key prefix does not fix, so the answer is the scope exactly.
 */
const scopeQuery = (scope: Partial<Place>): { base: string; query: (pk: string) => Omit<QueryCommandInput, 'TableName'> } => {
  const [index, pkName, skName, base, sk] =
    scope.room !== undefined
      ? ['GSI2', 'GSI2PK', 'GSI2SK', BY_NAME, prefix(scope.room, scope.region, scope.region !== undefined ? scope.location : undefined)]
      : scope.location !== undefined
        ? ['GSI1', 'GSI1PK', 'GSI1SK', BY_LOCATION, prefix(scope.location, scope.region)]
        : [undefined, 'PK', 'SK', ROOMS, prefix(scope.region)];
  const named = NAME_FIELDS.filter((field) => scope[field] !== undefined);
  return {
    base,
    query: (pk) => ({
      ...(index ? { IndexName: index } : {}),
      KeyConditionExpression: sk ? '#pk = :pk AND begins_with(#sk, :sk)' : '#pk = :pk',
      ...(named.length ? { FilterExpression: named.map((field) => `#p${FIELDS.indexOf(field)} = :${field}`).join(' AND ') } : {}),
      ExpressionAttributeNames: { ...Object.fromEntries(FIELDS.map((field, i) => [`#p${i}`, field])), '#pk': pkName, ...(sk ? { '#sk': skName } : {}) },
      ExpressionAttributeValues: { ':pk': pk, ...(sk ? { ':sk': sk } : {}), ...Object.fromEntries(named.map((field) => [`:${field}`, scope[field]])) },
      ProjectionExpression: FIELDS.map((_, i) => `#p${i}`).join(', '),
    }),
  };
};

const byPlace = (a: RoomAggregate, b: RoomAggregate) => (roomId(a) < roomId(b) ? -1 : roomId(a) > roomId(b) ? 1 : 0);

/** The aggregates of every room in scope (absent name: any) that holds devices, sorted by region, location, room. */
export const inScope = async (scope: Partial<Place>): Promise<RoomAggregate[]> => {
  const { base, query } = scopeQuery(scope);
  const items = await queryShards(base, query);
  return items.map(fromItem).sort(byPlace);
};

/**
 * The aggregates of the rooms in any of these scopes, sorted as `inScope` sorts them: one
 * `inScope` each, in parallel. The scopes must not overlap (a room in two is answered twice).
 */
export const inScopes = async (scopes: readonly Partial<Place>[]): Promise<RoomAggregate[]> =>
  (await Promise.all(scopes.map(inScope))).flat().sort(byPlace);

/**
 * Every room aggregate, read strongly consistent from the table (no index): what a summary
 * heal counts, so it never overwrites a summary with a total older than a run's last room write.
 */
export const allConsistent = async (): Promise<RoomAggregate[]> => {
  const { base, query } = scopeQuery({});
  const items = await queryShards(base, (pk) => ({ ...query(pk), ConsistentRead: true }));
  return items.map(fromItem).sort(byPlace);
};

/** One room's stored aggregate, read consistently (what a recompute writes against). */
export const read = async (place: Place): Promise<StoredRoom | undefined> => {
  const { Item } = await doc.send(new GetCommand({ TableName: tableName(), Key: keys(place), ConsistentRead: true }));
  return Item ? storedOf(Item) : undefined;
};

/** The stored aggregates of these rooms (eventually consistent BatchGetItem: a stale one only fails its version check). */
export const items = async (places: readonly Place[]): Promise<StoredRoom[]> => {
  return (await batchGet(places.map(keys), { consistent: false })).map(storedOf);
};

/**
 * Writes a room's whole aggregate under the version it was read at (0: read absent); false
 * when it moved meanwhile. `announce`: the counts or status changed (dashboards hear of it).
 */
export const write = async (aggregate: RoomAggregate, severities: SeverityCounts, readVersion: number, announce: boolean): Promise<boolean> => {
  const landed = await conditionHeld(doc.send(new PutCommand({ TableName: tableName(), Item: toItem(aggregate, severities, readVersion + 1), ...guard(readVersion) })));
  if (landed && announce) await announceStored({ kind: 'room', at: new Date().toISOString(), room: aggregate });
  return landed;
};

/** Removes a room that holds no device any more, under the version it was read at; false when it moved meanwhile. */
export const remove = async (emptied: RoomAggregate, readVersion: number): Promise<boolean> => {
  const landed = await conditionHeld(doc.send(new DeleteCommand({ TableName: tableName(), Key: keys(emptied), ...guard(readVersion) })));
  if (landed) await announceStored({ kind: 'room', at: new Date().toISOString(), room: emptied });
  return landed;
};

/** Sets a room's per-severity counts and the status they imply, under the version it was read at; false when it moved meanwhile. */
export const setSeverities = async (after: RoomAggregate, severities: SeverityCounts, readVersion: number): Promise<boolean> => {
  const landed = await conditionHeld(
    doc.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys(after),
        UpdateExpression: `SET ${SEVERITY_LEVELS.map((level) => `#sev${level} = :sev${level}`).join(', ')}, #status = :status, #version = :next`,
        ConditionExpression: '#version = :version',
        ExpressionAttributeNames: { '#status': 'roomStatus', '#version': 'version', ...Object.fromEntries(SEVERITY_LEVELS.map((level) => [`#sev${level}`, `sev${level}`])) },
        ExpressionAttributeValues: {
          ':status': after.roomStatus,
          ':version': readVersion,
          ':next': readVersion + 1,
          ...Object.fromEntries(SEVERITY_LEVELS.map((level) => [`:sev${level}`, severities[level]])),
        },
      }),
    ),
  );
  if (landed) await announceStored({ kind: 'room', at: new Date().toISOString(), room: after });
  return landed;
};
