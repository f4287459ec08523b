/**
 * Device and room answers marked `inMaintenance` at read time
 * (docs/guide/rules/maintenance.md "Devices and rooms show in maintenance at read time, the windows named with their end"), as alarms are (docs/guide/rules/maintenance.md "An alarm's maintenance windows are computed when it is read, not stored on it"):
 * one consistent Query of the few windows per answer, nothing stored on devices or rooms.
 */
import type { Place } from '#lib/devices/types';
import * as store from '#lib/maintenance/repository/windows';
import { deviceMaintenance, deviceWindows, roomMaintenance, type MaintenanceMark } from './pure/places';
import { openWindowsAt, type OpenWindow } from './pure/windows';

/** The open windows that may hold devices or rooms (none naming a watcher), at `at`. */
const placeWindowsOpenAt = async (at: number): Promise<OpenWindow[]> => deviceWindows(openWindowsAt(await store.all(), at));

/** `devices`, each held by an open window marked; the same objects when no window is open. */
export const withDeviceMaintenance = async <D extends { devicesn: string; vendor?: string; details: Place }>(devices: D[], at = Date.now()): Promise<(D & MaintenanceMark)[]> => {
  if (devices.length === 0) return devices;
  const open = await placeWindowsOpenAt(at);
  return open.length === 0 ? devices : devices.map((device) => ({ ...device, ...deviceMaintenance(open, device) }));
};

/** `rooms`, each held by an open window of places marked; the same objects when no window is open. */
export const withRoomMaintenance = async <R extends Place>(rooms: R[], at = Date.now()): Promise<(R & MaintenanceMark)[]> => {
  if (rooms.length === 0) return rooms;
  const open = await placeWindowsOpenAt(at);
  return open.length === 0 ? rooms : rooms.map((room) => ({ ...room, ...roomMaintenance(open, room) }));
};
