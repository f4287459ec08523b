import type { Place, StoredDevice } from '#lib/devices/types';
import { assemble, DEVICE_FIELDS, fieldsOf, fieldValue, isStored, normal } from '#lib/devices/model';
import { docRow, entity } from '#lib/store/entity';
import type { Item } from '#lib/store/expression';
import { shardKey } from '#lib/store/query';

/* Devices and their connectivity transitions. */
const devices = 'Devices, room aggregates and lookups';
/** A device item's attributes: one per stored field of the model, named as the model names it. */
const STORED = fieldsOf(DEVICE_FIELDS, isStored);
/** What a read of devices projects: every stored field (a field left out would read as absent). */
export const DEVICE_ATTRIBUTES: readonly string[] = STORED.map(([attribute]) => attribute);
const enc = encodeURIComponent;
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
  fromItem: (item): StoredDevice => assemble(STORED.map(([attribute, spec]) => [spec.path, normal(spec, item[attribute])])) as StoredDevice,
});
dataModel: docRow(DeviceEntity, { section: devices, PK: '`ROOM#<room>`', SK: '`DEVICE#<sn>`', GSI1: '`DEVICE#<sn>` / `DEVICE`', GSI2: '`SERIALS#<shard(sn)>` / `<sn>`',
  notes: '`deviceid, devicesn, devicemodel, connected, inCallStatus, region, location, room`, optional `alarmSeverity` (1..4, worst firing alarm; pending ones do not count) and `alarmWatchers` (the watchers with an open alarm on it), both set only by the alarm engine (other writers carry them over unchanged), `lastRefresh`, `updatedAt`, `connectivityAt` (the time of the newest pushed or polled connectivity observation applied: an older one never rewinds it; a whole write by the sync sets it to the time of its listing); from its provider: `vendor` (`webex`, `zoom`, `http`, `simulated`), `vendorRef` (Zoom: `<roomId>/<locationId>/<device type>`, for a refresh and the vendor room directory; never answered), `connectionDetail`, `errorCodes`, `software`, `lastSeen` (disconnected only), `plannedMaintenance`, `staleSince` (its provider failing past `PROVIDER_STALE_MINUTES`)' });

/** A device's whole item but its keys: index keys, then its fields (absent ones left out: removeUndefinedValues). */
export const deviceFields = (device: StoredDevice, now: string): Item => ({
  GSI1PK: deviceIndexPk(device.devicesn),
  GSI1SK: 'DEVICE',
  GSI2PK: shardKey(SERIALS, device.devicesn),
  GSI2SK: device.devicesn,
  ...Object.fromEntries(STORED.map(([attribute, spec]) => [attribute, fieldValue(device, spec)])),
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
