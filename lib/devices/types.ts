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

export const toDevice = (device: ProviderDevice): Device => ({
  deviceid: device.deviceid,
  devicesn: device.devicesn,
  devicemodel: device.devicemodel,
  status: { connected: device.status.connected, inCallStatus: device.status.inCallStatus },
  deviceconnected: device.status.connected,
  details: { room: device.details.room, location: device.details.location, region: device.details.region },
});
