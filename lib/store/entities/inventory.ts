import type { DayRollup } from '#lib/rollups/pure/availability';
import type { Place, RoomAggregate, RoomStatus, Severity, StoredDevice, SummaryScope } from '#lib/devices/types';
import { documented, docRow, entity, numbers, texts } from '../entity';
import type { Item } from '../expression';
import { shardKey } from '../query';

/* The inventory and its roll-ups: devices, room aggregates, summaries, sync fingerprints, connectivity. */
const devices = 'Devices, room aggregates and lookups';
const enc = encodeURIComponent;
/** The named attributes that are non-empty strings, in the order named (a device's optional vendor facts). */
const filled = <K extends string>(item: Item, ...names: K[]): Partial<Record<K, string>> =>
  Object.fromEntries(names.flatMap((name) => (typeof item[name] === 'string' && item[name] !== '' ? [[name, item[name]]] : []))) as Partial<Record<K, string>>;

export { roomId } from '../placeKeys';
import { locationId, roomId } from '../placeKeys';
export const byRoom = (a: Place, b: Place): number => (roomId(a) < roomId(b) ? -1 : roomId(a) > roomId(b) ? 1 : 0);

/** The inventory index: serial numbers, sharded by serial number. */
export const SERIALS = 'SERIALS';
/** The prefix of every room's partition (its devices). */
export const ROOM_PARTITION = 'ROOM#';
export const roomPartition = (place: Place) => `${ROOM_PARTITION}${roomId(place)}`;
export const deviceSk = (devicesn: string) => `DEVICE#${devicesn}`;
export const deviceIndexPk = (devicesn: string) => `DEVICE#${devicesn}`;
export const DeviceEntity = /* @__PURE__ */ entity({
  type: 'Device',
  key: (device: Pick<StoredDevice, 'devicesn' | 'details'>) => ({ PK: roomPartition(device.details), SK: deviceSk(device.devicesn) }),
  fromItem: (item): StoredDevice => {
    const vendorDetails = {
      ...filled(item, 'connectionDetail'),
      ...(Array.isArray(item.errorCodes) && item.errorCodes.length > 0 ? { errorCodes: item.errorCodes.map(String) } : {}),
      ...filled(item, 'software', 'lastSeen', 'plannedMaintenance'),
    };
    return {
      ...texts(item, 'deviceid', 'devicesn', 'devicemodel'),
      status: { connected: item.connected === true, inCallStatus: String(item.inCallStatus) },
      details: texts(item, 'region', 'location', 'room'),
      ...(typeof item.alarmSeverity === 'number' ? { alarmSeverity: item.alarmSeverity as Severity } : {}),
      ...(Array.isArray(item.alarmWatchers) && item.alarmWatchers.length > 0 ? { alarmWatchers: item.alarmWatchers.map(String) } : {}),
      ...filled(item, 'vendor', 'vendorRef', 'staleSince'),
      ...(Object.keys(vendorDetails).length > 0 ? { vendorDetails } : {}),
    };
  },
});
dataModel: docRow(DeviceEntity, { section: devices, PK: '`ROOM#<room>`', SK: '`DEVICE#<sn>`', GSI1: '`DEVICE#<sn>` / `DEVICE`', GSI2: '`SERIALS#<shard(sn)>` / `<sn>`',
  notes: '`deviceid, devicesn, devicemodel, connected, inCallStatus, region, location, room`, optional `alarmSeverity` (1..4, worst firing alarm; pending ones do not count) and `alarmWatchers` (the watchers with an open alarm on it), both set only by the alarm engine (other writers carry them over unchanged), `lastRefresh`, `updatedAt`; from its provider: `vendor` (`webex`, `zoom`, `http`, `simulated`), `vendorRef` (Zoom: `<roomId>/<locationId>`, for a refresh; never answered), `connectionDetail`, `errorCodes`, `software`, `lastSeen` (disconnected only), `plannedMaintenance`, `staleSince` (its provider failing past `PROVIDER_STALE_MINUTES`)' });

/** A device's whole item but its keys: index keys, then its fields (absent ones left out: removeUndefinedValues). */
export const deviceFields = (device: StoredDevice, now: string): Item => ({
  GSI1PK: deviceIndexPk(device.devicesn),
  GSI1SK: 'DEVICE',
  GSI2PK: shardKey(SERIALS, device.devicesn),
  GSI2SK: device.devicesn,
  deviceid: device.deviceid,
  devicesn: device.devicesn,
  devicemodel: device.devicemodel,
  connected: device.status.connected,
  inCallStatus: device.status.inCallStatus,
  region: device.details.region,
  location: device.details.location,
  room: device.details.room,
  alarmSeverity: device.alarmSeverity,
  alarmWatchers: device.alarmWatchers?.length ? device.alarmWatchers : undefined,
  vendor: device.vendor,
  vendorRef: device.vendorRef,
  connectionDetail: device.vendorDetails?.connectionDetail,
  errorCodes: device.vendorDetails?.errorCodes?.length ? device.vendorDetails.errorCodes : undefined,
  software: device.vendorDetails?.software,
  lastSeen: device.vendorDetails?.lastSeen,
  plannedMaintenance: device.vendorDetails?.plannedMaintenance,
  staleSince: device.staleSince,
  updatedAt: now,
});

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
export const summaryScopeId = (scope: SummaryScope): string => {
  const { region, location } = scope as Partial<Place>;
  if (region === undefined) return 'ALL';
  return location === undefined ? `REGION#${enc(region)}` : `LOCATION#${locationId({ region, location })}`;
};
export const SummaryEntity = /* @__PURE__ */ entity({
  type: 'Summary',
  key: (scope: SummaryScope) => ({ PK: `SUMMARY#${summaryScopeId(scope)}`, SK: 'SUMMARY' }),
  fromItem: (item): SummaryScope => {
    if (typeof item.region !== 'string') return {};
    return typeof item.location === 'string' ? { region: item.region, location: item.location } : { region: item.region };
  },
});
dataModel: docRow(SummaryEntity, {
  section: 'Summaries', PK: '`SUMMARY#ALL`, `SUMMARY#REGION#enc(region)`, `SUMMARY#LOCATION#enc(region)#enc(location)`', SK: '`SUMMARY`', GSI1: '`SUMMARIES` / `ALL`, `REGION#…`, `LOCATION#…`',
  notes: '`deviceCount, online, offline, rooms, Critical, Major, Minor, Info, OK` of the room aggregates in the scope; `region`, `location`; `version`; `inflight` (string set `<startedAt>:<runId>`)',
});

const fingerprints = 'Sync fingerprints';
export const FINGERPRINTS = 'SYNCFP';
/** A room's fingerprint is the attribute `r:<room>` of its bucket. */
export const ROOM_ATTRIBUTE = 'r:';
export const FingerprintBucketEntity = /* @__PURE__ */ entity({
  type: 'SyncFingerprints',
  key: (bucket: number) => ({ PK: FINGERPRINTS, SK: `B#${bucket}` }),
  fromItem: (item) => ({
    bucket: Number(String(item.SK).slice(2)),
    version: Number(item.version ?? 0),
    rooms: new Map(Object.entries(item).flatMap(([name, value]) => (name.startsWith(ROOM_ATTRIBUTE) ? [[name.slice(ROOM_ATTRIBUTE.length), String(value)] as const] : []))),
  }),
});
dataModel: docRow(FingerprintBucketEntity, { section: fingerprints, name: 'Bucket', PK: '`SYNCFP`', SK: '`B#<n>`',
  notes: '`r:<room>` = fingerprint (`dirty` in items written before dirty marks had their own items: compared like any difference); `version`' });
export const FingerprintTopEntity = /* @__PURE__ */ entity({
  type: 'SyncFingerprintTop',
  key: (_: void) => ({ PK: FINGERPRINTS, SK: 'TOP' }),
  fromItem: (item) => ({
    buckets: Number(item.buckets ?? 0),
    fullAt: Number(item.fullAt ?? 0),
    hashes: new Map(Object.entries(item).flatMap(([name, value]) => (/^b\d+$/.test(name) ? [[Number(name.slice(1)), String(value)] as const] : []))),
  }),
});
dataModel: docRow(FingerprintTopEntity, { section: fingerprints, name: 'Top', PK: '`SYNCFP`', SK: '`TOP`', notes: '`b<n>` = bucket hash, or `whole:<uuid>` (a sync is writing into it); `buckets` (B); `fullAt` (epoch ms of the last full sync)' });
/** A bucket's hash is the attribute `b<n>` of the top item. */
export const hashAttribute = (bucket: number) => `b${bucket}`;
dataModel: documented({ section: fingerprints, name: 'Held room (inside a bucket)', PK: '', SK: '',
  notes: "`r:<room>` = `!held`: the room holds devices the sync keeps as they are (their provider failed, their record was unreadable, or the removal guard holds their removal); equal to no listing's fingerprint, so every sync compares the room again until nothing in it is held" });
/** Rooms written by someone other than the sync since the sync last compared them, sharded by room. */
export const DIRTY_ROOMS = 'SYNCFP#DIRTY';
export const DirtyRoomEntity = /* @__PURE__ */ entity({
  type: 'SyncDirtyRoom',
  key: (room: string) => ({ PK: shardKey(DIRTY_ROOMS, room), SK: room }),
  fromItem: (item) => ({ room: String(item.SK), mark: String(item.mark) }),
});
dataModel: docRow(DirtyRoomEntity, {
  section: fingerprints, name: 'Dirty room', PK: '`SYNCFP#DIRTY#<shard(room)>`', SK: '`<room>` (the room identity alone, as in its aggregate: whatever room fits a key can be marked)',
  notes: '`mark` (a fresh UUID per write): another writer wrote devices of the room since the sync last compared it',
});

const connectivity = 'Alarm lifecycle, history, device connectivity';
export const ConnectivityTransitionEntity = /* @__PURE__ */ entity({
  type: 'ConnectivityTransition',
  key: ({ devicesn, at }: { devicesn: string; at: string }) => ({ PK: connectivityPk(devicesn), SK: at }),
  fromItem: (item) => ({ at: String(item.at), connected: item.connected === true, inCallStatus: String(item.inCallStatus) }),
});
dataModel: docRow(ConnectivityTransitionEntity, { section: connectivity, name: 'Connectivity transition', PK: '`CONNECTIVITY#<sn>`', SK: '`<at>`',
  notes: '`at, connected, inCallStatus`; first observation and every `connected` flip' });
export const connectivityPk = (devicesn: string) => `CONNECTIVITY#${enc(devicesn)}`;
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
