import type { Severity, SeverityLabel } from '#lib/shared/severity';

/** Where a device is: a room is identified by region + location + room name (DESIGN D11). */
export interface Place {
  region: string;
  location: string;
  room: string;
}

export interface DeviceStatus {
  connected: boolean;
  /** ACTIVE and NONE occur; other values from a provider are passed through. */
  inCallStatus: string;
}

/** A device as the API answers it (spec "Device"). `deviceconnected` always equals `status.connected`. */
export interface Device {
  deviceid: string;
  devicesn: string;
  devicemodel: string;
  status: DeviceStatus;
  deviceconnected: boolean;
  details: Place;
}

/** A device as a provider reports it: `deviceconnected` is derived, never taken from outside. */
export type ProviderDevice = Omit<Device, 'deviceconnected'>;

export type { Severity } from '#lib/shared/severity';

/** A device as stored: also the worst open alarm's severity, set by the alarm engine. */
export interface StoredDevice extends ProviderDevice {
  alarmSeverity?: Severity;
  /** Watchers with an open alarm on the device (set by the alarm engine with the severity). */
  alarmWatchers?: string[];
}

/** A room's status: the label of its worst open alarm, OK when none (DESIGN D6). */
export type RoomStatus = SeverityLabel | 'OK';

/** The per-room aggregate every count endpoint reads (DESIGN §3). */
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

export const toDevice = (device: ProviderDevice): Device => ({
  deviceid: device.deviceid,
  devicesn: device.devicesn,
  devicemodel: device.devicemodel,
  status: { connected: device.status.connected, inCallStatus: device.status.inCallStatus },
  deviceconnected: device.status.connected,
  details: { room: device.details.room, location: device.details.location, region: device.details.region },
});

/**
 * Which watchers may have an open alarm on a stored device: those it names, or every watcher
 * ('any') for a device with a severity but no list (written before the list existed).
 */
export const openWatchersHint = (device: Pick<StoredDevice, 'alarmSeverity' | 'alarmWatchers'>): string[] | 'any' =>
  device.alarmWatchers?.length ? device.alarmWatchers : device.alarmSeverity !== undefined ? 'any' : [];

/* Summaries (lib/devices/summary.ts): the counts of the room aggregates within a scope. */

/** The scopes a summary exists for: `{}`, `{region}`, `{region, location}`. */
export type SummaryScope = Record<string, never> | { region: string } | { region: string; location: string };

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

export const summaryKey = (scope: SummaryScope): string => JSON.stringify([(scope as Partial<Place>).region ?? null, (scope as Partial<Place>).location ?? null]);

