import { DEVICE_FIELDS, fieldsOf, fieldValue, isStored, sameValue } from '#lib/devices/model';
import {
  CALL_STATE_UNKNOWN,
  roomKey,
  withAlarmFieldsOf,
  type ConnectivityChange,
  type Place,
  type ProviderDevice,
  type StoredDevice,
} from '#lib/devices/types';

const samePlace = (a: Place, b: Place) => roomKey(a) === roomKey(b);

/** What the sync compares: every field a device item stores, as it would be stored. */
const COMPARED = fieldsOf(DEVICE_FIELDS, isStored).map(([, spec]) => spec);

/** Nothing a write would store differs (the alarm engine's fields are carried over, so equal unless the engine moved). */
const unchanged = (a: StoredDevice, b: StoredDevice) => COMPARED.every((spec) => sameValue(fieldValue(a, spec), fieldValue(b, spec)));

/** A listing that does not say whether a device is in a call keeps what was stored while it stays connected. */
const callState = (device: ProviderDevice, previous: StoredDevice | undefined): string =>
  device.status.inCallStatus !== CALL_STATE_UNKNOWN
    ? device.status.inCallStatus
    : device.status.connected && previous?.status.connected && previous.status.inCallStatus !== CALL_STATE_UNKNOWN
      ? previous.status.inCallStatus
      : 'NONE';

interface SyncPlan {
  /** New or changed devices (a moved device is written in its new room). */
  puts: StoredDevice[];
  /** Devices that vanished, and the old item of every moved device. */
  deletes: StoredDevice[];
  /** Rooms a put or delete touched. */
  touched: Place[];
  /** How many stored devices the provider no longer reports. */
  vanished: number;
  /** Those devices (what the removal guard weighs). */
  removed: StoredDevice[];
}

/**
 * What a sync writes: the provider's list is the truth for inventory and status; the alarm
 * severity stays what the alarm engine stored. A serial number listed twice counts once (last wins).
 */
export const planSync = (stored: readonly StoredDevice[], incoming: readonly ProviderDevice[]): SyncPlan => {
  const before = new Map(stored.map((d) => [d.devicesn, d]));
  const after = new Map<string, StoredDevice>();
  for (const device of incoming) {
    const previous = before.get(device.devicesn);
    after.set(device.devicesn, withAlarmFieldsOf({ ...device, status: { ...device.status, inCallStatus: callState(device, previous) } }, previous));
  }
  const puts: StoredDevice[] = [];
  const deletes: StoredDevice[] = [];
  const touched = new Map<string, Place>();
  const touch = (place: Place) => touched.set(roomKey(place), place);
  for (const device of after.values()) {
    const previous = before.get(device.devicesn);
    if (previous && unchanged(previous, device)) continue;
    puts.push(device);
    touch(device.details);
    if (previous && !samePlace(previous.details, device.details)) {
      deletes.push(previous);
      touch(previous.details);
    }
  }
  const removed: StoredDevice[] = [];
  for (const device of stored) {
    const next = after.get(device.devicesn);
    if (next) {
      // a serial number stored in a second room (a refresh's move cut short between its write and
      // its removal): every copy outside the room the provider reports goes, whichever was read last
      if (device !== before.get(device.devicesn) && !samePlace(device.details, next.details)) {
        deletes.push(device);
        touch(device.details);
      }
      continue;
    }
    deletes.push(device);
    touch(device.details);
    removed.push(device);
  }
  return { puts, deletes, touched: [...touched.values()], vanished: removed.length, removed };
};

/**
 * The connectivity changes a write of `puts` over the `stored` inventory makes: every device seen
 * for the first time, and every device whose `connected` flag flipped.
 */
export const connectivityChanges = (stored: readonly StoredDevice[], puts: readonly StoredDevice[], at: string): ConnectivityChange[] => {
  const before = new Map(stored.map((device) => [device.devicesn, device]));
  return puts
    .filter((device) => before.get(device.devicesn)?.status.connected !== device.status.connected)
    .map((device) => ({ devicesn: device.devicesn, at, connected: device.status.connected, inCallStatus: device.status.inCallStatus }));
};
