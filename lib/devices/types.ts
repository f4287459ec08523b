import { NotFound } from '#lib/shared/errors';
import type { Severity, SeverityLabel } from '#lib/shared/severity';
import type { Place } from '#lib/shared/place';

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

interface DeviceStatus {
  connected: boolean;
  /** ACTIVE and NONE occur; other values from a provider are passed through. */
  inCallStatus: string;
}

/**
 * What a vendor says about a device beyond the spec's fields (DESIGN §6). `lastSeen` is kept for
 * a device that is not connected only (a connected one is seen now: keeping its ever-moving
 * time would rewrite the whole fleet on every sync).
 */
export interface VendorDetails {
  /** The vendor's own connection state, e.g. Webex `connected_with_issues`, Zoom `Online`. */
  connectionDetail?: string;
  errorCodes?: string[];
  software?: string;
  lastSeen?: string;
  /** Planned maintenance mode (`off`, `on`, `upcoming`). */
  plannedMaintenance?: string;
}

/** A device as the API answers it (spec "Device"). `deviceconnected` always equals `status.connected`. */
export interface Device {
  deviceid: string;
  devicesn: string;
  devicemodel: string;
  status: DeviceStatus;
  deviceconnected: boolean;
  details: Place;
  /** The provider that reports the device (`webex`, `zoom`, `http`, `simulated`). */
  vendor?: string;
  vendorDetails?: VendorDetails;
  /** Since when the device's provider has been failing longer than PROVIDER_STALE_MINUTES. */
  staleSince?: string;
}

/**
 * A device as a provider reports it: `deviceconnected` is derived, never taken from outside.
 * `vendorRef` is the vendor's handle for a refresh (Zoom: the room id), stored but never answered.
 */
export type ProviderDevice = Omit<Device, 'deviceconnected' | 'staleSince'> & { vendorRef?: string; staleSince?: string };

/**
 * The call state of a listing that does not say (Webex lists no call state): the sync keeps the
 * stored one while the device stays connected, else NONE (lib/inventory/pure/syncPlan.ts).
 */
export const CALL_STATE_UNKNOWN = '?';

export type { Severity } from '#lib/shared/severity';

/** A device as stored: also the worst open alarm's severity, set by the alarm engine. */
export interface StoredDevice extends ProviderDevice {
  alarmSeverity?: Severity;
  /** Watchers with an open alarm on the device (set by the alarm engine with the severity). */
  alarmWatchers?: string[];
}

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

export const toDevice = (device: ProviderDevice): Device => ({
  deviceid: device.deviceid,
  devicesn: device.devicesn,
  devicemodel: device.devicemodel,
  status: { connected: device.status.connected, inCallStatus: device.status.inCallStatus },
  deviceconnected: device.status.connected,
  details: { room: device.details.room, location: device.details.location, region: device.details.region },
  ...(device.vendor === undefined ? {} : { vendor: device.vendor }),
  ...(device.vendorDetails === undefined ? {} : { vendorDetails: { ...device.vendorDetails } }),
  ...(device.staleSince === undefined ? {} : { staleSince: device.staleSince }),
});

/** The vendor's extra facts as one comparable string ('' for a device without any). */
export const vendorFactsKey = (device: Pick<ProviderDevice, 'vendor' | 'vendorDetails' | 'vendorRef' | 'staleSince'>): string => {
  if (device.vendor === undefined && device.vendorDetails === undefined && device.staleSince === undefined) return '';
  const d = device.vendorDetails ?? {};
  return JSON.stringify([device.vendor, device.vendorRef, d.connectionDetail, d.errorCodes, d.software, d.lastSeen, d.plannedMaintenance, device.staleSince]);
};

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

