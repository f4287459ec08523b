import { cellText, type CsvTable } from '#lib/shared/csv';
import type { RoomAvailability } from '#lib/rollups/pure/availability';
import { DEVICE_FIELDS, fieldsOf, fieldValue, ordered, type DeviceField } from './model';
import type { ConnectivityChange, Device } from './types';

/*
 * Device answers as CSV (?format=csv): the device list, a device's connectivity history and the
 * rooms' availability, one row per item of the JSON answer, in its order, under stable column names
 * (documented in the contracts, schemas/devices.ts). Booleans are true/false, lists are joined by spaces.
 */

/** The columns clients have always read first, in their order (a CSV's positions are part of its contract). */
const CSV_LEAD: readonly DeviceField[] = ['devicesn', 'deviceid', 'region', 'location', 'room', 'connected', 'inCallStatus', 'devicemodel'];
/** The exported fields: those CSV_LEAD names, then every other field with a column, in declaration order. */
const EXPORTED = (() => {
  const declared = fieldsOf(DEVICE_FIELDS, (spec) => spec.csv !== undefined);
  const specs = new Map(declared);
  return ordered<string>(CSV_LEAD, declared.map(([field]) => field)).map((field) => specs.get(field)!);
})();

/** POST /videoDevice/all/allDevices: the spec's Device, flattened (one column a field of the model that has one). */
export const DEVICE_CSV_COLUMNS: readonly string[] = EXPORTED.map((spec) => spec.csv!);

export const DEVICE_CSV: CsvTable<Device> = {
  columns: DEVICE_CSV_COLUMNS,
  cells: (device) => EXPORTED.map((spec) => cellText(fieldValue(device, spec))),
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
