import { cellText, type CsvTable } from '#lib/shared/csv';
import type { RoomAvailability } from '#lib/rollups/pure/availability';
import type { ConnectivityChange, Device } from './types';

/*
 * Device answers as CSV (?format=csv): the device list, a device's connectivity history and the
 * rooms' availability, one row per item of the JSON answer, in its order, under stable column names
 * (documented in the contracts, schemas/devices.ts). Booleans are true/false, lists are joined by spaces.
 */

/** POST /videoDevice/all/allDevices: the spec's Device, flattened. */
export const DEVICE_CSV_COLUMNS = [
  'devicesn',
  'deviceid',
  'region',
  'location',
  'room',
  'connected',
  'inCallStatus',
  'model',
  'vendor',
  'connectionDetail',
  'errorCodes',
  'software',
  'lastSeen',
  'plannedMaintenance',
  'staleSince',
] as const;

export const DEVICE_CSV: CsvTable<Device> = {
  columns: DEVICE_CSV_COLUMNS,
  cells: (device) => [
    device.devicesn,
    device.deviceid,
    device.details.region,
    device.details.location,
    device.details.room,
    cellText(device.status.connected),
    device.status.inCallStatus,
    device.devicemodel,
    cellText(device.vendor),
    cellText(device.vendorDetails?.connectionDetail),
    cellText(device.vendorDetails?.errorCodes),
    cellText(device.vendorDetails?.software),
    cellText(device.vendorDetails?.lastSeen),
    cellText(device.vendorDetails?.plannedMaintenance),
    cellText(device.staleSince),
  ],
};

/** GET /videoDevice/{devicesn}/history: the device's serial number, then each transition. */
export const DEVICE_HISTORY_CSV_COLUMNS = ['devicesn', 'at', 'connected', 'inCallStatus'] as const;

export const deviceHistoryCsv = (devicesn: string): CsvTable<Pick<ConnectivityChange, 'at' | 'connected' | 'inCallStatus'>> => ({
  columns: DEVICE_HISTORY_CSV_COLUMNS,
  cells: (change) => [devicesn, change.at, cellText(change.connected), change.inCallStatus],
});

/** POST /videoDevice/room/availability: one row per room (worst first), each with the window it covers. */
export const AVAILABILITY_CSV_COLUMNS = ['region', 'location', 'room', 'availability', 'deviceCount', 'from', 'to'] as const;

export const availabilityCsv = (window: { from: string; to: string }): CsvTable<RoomAvailability> => ({
  columns: AVAILABILITY_CSV_COLUMNS,
  cells: (room) => [room.region, room.location, room.room, cellText(room.availability), cellText(room.deviceCount), window.from, window.to],
});
