import type { Place, Severity, StoredDevice } from '#lib/devices/types';
import { docRow, entity, texts } from '#lib/store/entity';
import type { Item } from '#lib/store/expression';
import { shardKey } from '#lib/store/query';

/* Devices and their connectivity transitions. */
const devices = 'Devices, room aggregates and lookups';
const enc = encodeURIComponent;
/** The named attributes that are non-empty strings, in the order named (a device's optional vendor facts). */
const filled = <K extends string>(item: Item, ...names: K[]): Partial<Record<K, string>> =>
  Object.fromEntries(names.flatMap((name) => (typeof item[name] === 'string' && item[name] !== '' ? [[name, item[name]]] : []))) as Partial<Record<K, string>>;

export { roomId } from '#lib/store/placeKeys';
import { roomId } from '#lib/store/placeKeys';
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

const connectivity = 'Alarm lifecycle, history, device connectivity';
export const ConnectivityTransitionEntity = /* @__PURE__ */ entity({
  type: 'ConnectivityTransition',
  key: ({ devicesn, at }: { devicesn: string; at: string }) => ({ PK: connectivityPk(devicesn), SK: at }),
  fromItem: (item) => ({ at: String(item.at), connected: item.connected === true, inCallStatus: String(item.inCallStatus) }),
});
dataModel: docRow(ConnectivityTransitionEntity, { section: connectivity, name: 'Connectivity transition', PK: '`CONNECTIVITY#<sn>`', SK: '`<at>`',
  notes: '`at, connected, inCallStatus`; first observation and every `connected` flip' });
export const connectivityPk = (devicesn: string) => `CONNECTIVITY#${enc(devicesn)}`;
