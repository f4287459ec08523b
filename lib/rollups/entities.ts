import type { DayRollup } from '#lib/rollups/pure/availability';
import type { Place, RoomAggregate, RoomStatus, SummaryPlace } from '#lib/devices/types';
import { docRow, entity, numbers, texts } from '#lib/store/entity';
import { shardKey } from '#lib/store/query';
import { locationId, roomId } from '#lib/store/placeKeys';

const devices = 'Devices, room aggregates and lookups';
const connectivity = 'Alarm lifecycle, history, device connectivity';
const enc = encodeURIComponent;

/** The room aggregates' partitions, each sharded by room identity. */
export const ROOMS = { byRegion: 'ROOMS', byLocation: 'ROOMS#BY_LOCATION', byName: 'ROOMS#BY_NAME' };
export const RoomEntity = /* @__PURE__ */ entity({
  type: 'RoomAggregate',
  key: (place: Place) => ({ PK: shardKey(ROOMS.byRegion, roomId(place)), SK: roomId(place) }),
  fromItem: (item): RoomAggregate => ({
    ...texts(item, 'region', 'location', 'room'),
    ...numbers(item, 'deviceCount', 'online', 'offline'),
    roomStatus: String(item.roomStatus) as RoomStatus,
  }),
});
dataModel: docRow(RoomEntity, {
  section: devices, name: 'Room aggregate', PK: '`ROOMS#<shard(room)>`', SK: '`<room>`', GSI1: '`ROOMS#BY_LOCATION#<shard(room)>` / `enc(location)#enc(region)#enc(room)`', GSI2: '`ROOMS#BY_NAME#<shard(room)>` / `enc(room)#enc(region)#enc(location)`',
  notes: '`region, location, room, deviceCount, online, offline, roomStatus` (`Critical`..`Info`, `OK`), `version`; exists only while the room holds devices',
});
export const roomIndexKeys = (place: Place) => ({
  GSI1PK: shardKey(ROOMS.byLocation, roomId(place)),
  GSI1SK: `${enc(place.location)}#${enc(place.region)}#${enc(place.room)}`,
  GSI2PK: shardKey(ROOMS.byName, roomId(place)),
  GSI2SK: `${enc(place.room)}#${enc(place.region)}#${enc(place.location)}`,
});
/** Leading names that are fixed, as a prefix of a room aggregate's sort keys (table and indexes): `a#b#` for [a, b, undefined], `a#b#c` for all three. */
export const roomIndexPrefix = (...names: (string | undefined)[]) => {
  const end = names.indexOf(undefined);
  const fixed = (names.slice(0, end < 0 ? undefined : end) as string[]).map(enc);
  return fixed.length === 3 ? fixed.join('#') : fixed.map((name) => `${name}#`).join('');
};

/** Every summary is in GSI1 under this key. */
export const SUMMARIES = 'SUMMARIES';
export const summaryPlaceId = (scope: SummaryPlace): string => {
  const { region, location } = scope as Partial<Place>;
  if (region === undefined) return 'ALL';
  return location === undefined ? `REGION#${enc(region)}` : `LOCATION#${locationId({ region, location })}`;
};
export const SummaryEntity = /* @__PURE__ */ entity({
  type: 'Summary',
  key: (scope: SummaryPlace) => ({ PK: `SUMMARY#${summaryPlaceId(scope)}`, SK: 'SUMMARY' }),
  fromItem: (item): SummaryPlace => {
    if (typeof item.region !== 'string') return {};
    return typeof item.location === 'string' ? { region: item.region, location: item.location } : { region: item.region };
  },
});
dataModel: docRow(SummaryEntity, {
  section: 'Summaries', PK: '`SUMMARY#ALL`, `SUMMARY#REGION#enc(region)`, `SUMMARY#LOCATION#enc(region)#enc(location)`', SK: '`SUMMARY`', GSI1: '`SUMMARIES` / `ALL`, `REGION#…`, `LOCATION#…`',
  notes: '`deviceCount, online, offline, rooms, Critical, Major, Minor, Info, OK` of the room aggregates in the scope; `region`, `location`; `version`; `inflight` (string set `<startedAt>:<runId>`)',
});

export const rollupPk = (place: Place) => `AVAILABILITY#${roomId(place)}`;
export const RollupEntity = /* @__PURE__ */ entity({
  type: 'AvailabilityRollup',
  key: ({ place, day }: { place: Place; day: string }) => ({ PK: rollupPk(place), SK: day }),
  fromItem: (item): DayRollup => ({
    day: String(item.SK),
    ...texts(item, 'since', 'lastAt'),
    ...numbers(item, 'connected', 'observed'),
    connectedSeconds: (item.connectedSeconds as number[]).map(Number),
    observedSeconds: (item.observedSeconds as number[]).map(Number),
  }),
});
dataModel: docRow(RollupEntity, { section: connectivity, name: 'Availability rollup', PK: '`AVAILABILITY#<room>`', SK: '`<YYYY-MM-DD>`',
  notes: '`region, location, room, since, lastAt, connected, observed` (counts from `lastAt` on), `connectedSeconds[24], observedSeconds[24]` (device-seconds per UTC hour)' });
