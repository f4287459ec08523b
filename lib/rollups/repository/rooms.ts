import type { Place, RoomAggregate, Severity, SeverityCounts, StoredRoom } from '#lib/devices/types';
import { byRoom } from '#lib/devices/entities';
import { RoomEntity, roomIndexKeys, roomIndexPrefix, ROOMS } from '#lib/rollups/entities';
import { atVersion, equal, expr } from '#lib/store/expression';
import { queryShards, type Query } from '#lib/store/query';
import { asRead, batchGet, type Item } from '#lib/store/table';
import { announceStored } from '#lib/alarms/repository/changes';

// One aggregate per room with devices, sharded, in three orders (docs/guide/rules/inventory.md); lib/rollups/rooms.ts decides its content.
// Single-item version-guarded writes, no transactions: a run writes thousands of rooms, where they would double the write units (docs/adr/0550).
const SEVERITY_LEVELS: Severity[] = [1, 2, 3, 4];
const severityFields = (severities: SeverityCounts) => Object.fromEntries(SEVERITY_LEVELS.map((level) => [`sev${level}`, severities[level]]));

const storedOf = (item: Item): StoredRoom => {
  const severities = { 1: Number(item.sev1), 2: Number(item.sev2), 3: Number(item.sev3), 4: Number(item.sev4) };
  const counted = SEVERITY_LEVELS.every((level) => typeof item[`sev${level}`] === 'number');
  return { aggregate: RoomEntity.fromItem(item), version: Number(item.version ?? 0), ...(counted ? { severities } : {}) };
};

const FIELDS = ['region', 'location', 'room', 'deviceCount', 'online', 'offline', 'roomStatus'];

/** The narrowest ordering for a place, and a filter on every name its key prefix does not fix. */
const placeQuery = (place: Partial<Place>): { base: string; query: Omit<Query, 'pk'> } => {
  const [index, base, sk] =
    place.room !== undefined
      ? (['GSI2', ROOMS.byName, roomIndexPrefix(place.room, place.region, place.region !== undefined ? place.location : undefined)] as const)
      : place.location !== undefined
        ? (['GSI1', ROOMS.byLocation, roomIndexPrefix(place.location, place.region)] as const)
        : ([undefined, ROOMS.byRegion, roomIndexPrefix(place.region)] as const);
  return {
    base,
    query: {
      ...(index ? { index } : {}),
      ...(sk ? { sk: expr('begins_with(#sk, :sk)', { sk }) } : {}),
      filter: equal({ region: place.region, location: place.location, room: place.room }),
      project: FIELDS,
    },
  };
};

/** The aggregates of every room in a place (absent name: any) with devices, by place; `consistent`: a summary heal's (docs/adr/0130). */
export const inPlace = async (place: Partial<Place>, { consistent = false } = {}): Promise<RoomAggregate[]> => {
  const { base, query } = placeQuery(place);
  return (await queryShards(base, { ...query, consistent })).map(RoomEntity.fromItem).sort(byRoom);
};

/** Places disjoint: no aggregate twice. */
export const inPlaces = async (places: readonly Partial<Place>[]): Promise<RoomAggregate[]> =>
  (await Promise.all(places.map((place) => inPlace(place)))).flat().sort(byRoom);

/** One room's stored aggregate, read consistently (what a recompute writes against). */
export const read = async (place: Place): Promise<StoredRoom | undefined> => {
  const item = await RoomEntity.read(place, { consistent: true });
  return item && storedOf(item);
};

/** The stored aggregates of these rooms (eventually consistent BatchGetItem: a stale one only fails its version check). */
export const items = async (places: readonly Place[]): Promise<StoredRoom[]> => (await batchGet(places.map(RoomEntity.key), { consistent: false })).map(storedOf);

/** Tells dashboards of a room write that landed. */
const announced = async (landed: boolean, room: RoomAggregate): Promise<boolean> => {
  if (landed) await announceStored({ kind: 'room', at: new Date().toISOString(), room });
  return landed;
};

/** Writes a room's aggregate under the version read (0: absent); false when it moved. `announce`: dashboards hear of it. */
export const write = async (aggregate: RoomAggregate, severities: SeverityCounts, readVersion: number, announce: boolean): Promise<boolean> => {
  const { region, location, room, deviceCount, online, offline, roomStatus } = aggregate;
  const fields = { ...roomIndexKeys(aggregate), region, location, room, deviceCount, online, offline, roomStatus, ...severityFields(severities) };
  const landed = await RoomEntity.put(aggregate, { ...fields, version: readVersion + 1, updatedAt: new Date().toISOString() }, asRead(readVersion));
  return announce ? announced(landed, aggregate) : landed;
};

/** Removes a room that holds no device any more, under the version it was read at; false when it moved meanwhile. */
export const remove = async (emptied: RoomAggregate, readVersion: number): Promise<boolean> => announced(await RoomEntity.remove(emptied, asRead(readVersion)), emptied);

/** Sets a room's per-severity counts and the status they imply, under the version it was read at; false when it moved meanwhile. */
export const setSeverities = async (after: RoomAggregate, severities: SeverityCounts, readVersion: number): Promise<boolean> => {
  const change = { set: { ...severityFields(severities), roomStatus: after.roomStatus, version: readVersion + 1 } };
  return announced(!!(await RoomEntity.update(after, change, atVersion(readVersion))), after);
};
