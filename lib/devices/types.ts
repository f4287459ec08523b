import { NotFound } from '#lib/shared/errors';
import type { Severity, SeverityLabel } from '#lib/shared/severity';
import type { Place } from '#lib/shared/place';
import { assemble, DEVICE_FIELDS, fieldsOf, fieldValue, isAnswered, type Device, type DeviceFields, type ProviderDevice, type StoredDevice } from './model';

/** Where a device is (lib/shared/place.ts, below the domains: the store's keys are built from it). */
export type { Place };

/**
 * A room's identity in memory (map keys, grouping, ordering): one string per room. Keys in the
 * store encode it their own way (lib/store/placeKeys.ts `roomId`, URI-encoded names joined by `#`).
 */
export const roomKey = (place: Place): string => JSON.stringify([place.region, place.location, place.room]);

/** The 404 of an unknown serial number (DESIGN D4), and of one outside the caller's scope (no existence leak). */
export const deviceNotFound = (devicesn: string) => new NotFound(`Device ${devicesn} not found`);

/** Places by room identity, each room once (the first place seen of it). */
export const uniquePlaces = (places: Iterable<Place>): Place[] => [...new Map([...places].map((place) => [roomKey(place), place])).values()];

export type { Device, DeviceField, ProviderDevice, StoredDevice, VendorDetails } from './model';

/**
 * The call state of a listing that does not say (Webex lists no call state): the sync keeps the
 * stored one while the device stays connected, else NONE (lib/inventory/pure/syncPlan.ts).
 */
export const CALL_STATE_UNKNOWN = '?';

export type { Severity } from '#lib/shared/severity';

/** One observed connectivity change of a device (or its first observation): what its history lists. */
export interface ConnectivityChange {
  devicesn: string;
  at: string;
  connected: boolean;
  inCallStatus: string;
}

/** A room's status: the label of its worst open alarm, OK when none (DESIGN D6). */
export type RoomStatus = SeverityLabel | 'OK';

/** The per-room aggregate every count endpoint reads, so no count reads the devices themselves (DESIGN §3). */
export interface RoomAggregate extends Place {
  deviceCount: number;
  online: number;
  offline: number;
  roomStatus: RoomStatus;
}

/** How many devices of a room have each worst open severity: what lets a room move by a delta. */
export type SeverityCounts = Record<Severity, number>;

/** A room aggregate as stored: its per-severity counts (absent on items written before them) and its version. */
export interface StoredRoom {
  aggregate: RoomAggregate;
  severities?: SeverityCounts;
  version: number;
}

/** The fields a device is answered with, in the API's order (derived ones repeat the field they name). */
const ANSWERED = fieldsOf(DEVICE_FIELDS, isAnswered).map(([, spec]) => ({ path: spec.path, source: spec.sameAs ? (DEVICE_FIELDS as DeviceFields)[spec.sameAs]! : spec }));

/** A device as the API answers it: its answered fields, in the API's order. */
export const toDevice = (device: ProviderDevice): Device => assemble(ANSWERED.map(({ path, source }) => [path, fieldValue(device, source)])) as Device;

/**
 * `device` with the alarm engine's fields (`alarmSeverity`, `alarmWatchers`) as `source` holds
 * them, absent where it holds none: what every writer of a device's other fields carries over.
 */
export const withAlarmFieldsOf = <D extends Omit<StoredDevice, 'alarmSeverity' | 'alarmWatchers'>>(
  device: D,
  source: Pick<StoredDevice, 'alarmSeverity' | 'alarmWatchers'> | undefined,
): D & Pick<StoredDevice, 'alarmSeverity' | 'alarmWatchers'> => {
  const { alarmSeverity: _severity, alarmWatchers: _watchers, ...rest } = device as D & Pick<StoredDevice, 'alarmSeverity' | 'alarmWatchers'>;
  return {
    ...(rest as D),
    ...(source?.alarmSeverity !== undefined ? { alarmSeverity: source.alarmSeverity } : {}),
    ...(source?.alarmWatchers?.length ? { alarmWatchers: source.alarmWatchers } : {}),
  };
};

/**
 * Which watchers may have an open alarm on a stored device: those it names, or every watcher
 * ('any') for a device with a severity but no list (written before the list existed).
 */
export const openWatchersHint = (device: Pick<StoredDevice, 'alarmSeverity' | 'alarmWatchers'>): string[] | 'any' =>
  device.alarmWatchers?.length ? device.alarmWatchers : device.alarmSeverity !== undefined ? 'any' : [];

/* Summaries (lib/rollups/pure/summary.ts): the counts of the room aggregates within a scope. */

/** The scopes a summary exists for: `{}`, `{region}`, `{region, location}`. */
export type SummaryPlace = Record<string, never> | { region: string } | { region: string; location: string };

export interface Counts {
  deviceCount: number;
  online: number;
  offline: number;
  rooms: number;
  Critical: number;
  Major: number;
  Minor: number;
  Info: number;
  OK: number;
}

export const COUNT_FIELDS = ['deviceCount', 'online', 'offline', 'rooms', 'Critical', 'Major', 'Minor', 'Info', 'OK'] as const;

export const zeroCounts = (): Counts => ({ deviceCount: 0, online: 0, offline: 0, rooms: 0, Critical: 0, Major: 0, Minor: 0, Info: 0, OK: 0 });

export const sameCounts = (a: Counts, b: Counts): boolean => COUNT_FIELDS.every((field) => a[field] === b[field]);

export const summaryKey = (scope: SummaryPlace): string => JSON.stringify([(scope as Partial<Place>).region ?? null, (scope as Partial<Place>).location ?? null]);

