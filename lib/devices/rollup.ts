import { SEVERITIES } from '#lib/shared/severity';
import type { RoomAggregate, RoomStatus, Severity, StoredDevice, Place } from './types';

/** A room's status is the worst open alarm among its devices, OK when none (DESIGN D6). */
export const roomStatusOf = (severities: Iterable<Severity | undefined>): RoomStatus => {
  let worst: Severity | undefined;
  for (const severity of severities) {
    if (severity !== undefined && (worst === undefined || severity < worst)) worst = severity;
  }
  return worst === undefined ? 'OK' : SEVERITIES[worst];
};

type Member = Pick<StoredDevice, 'status' | 'alarmSeverity'>;

/** The aggregate of one room from its devices. */
export const rollUp = (place: Place, devices: readonly Member[]): RoomAggregate => {
  const online = devices.filter((d) => d.status.connected).length;
  return {
    region: place.region,
    location: place.location,
    room: place.room,
    deviceCount: devices.length,
    online,
    offline: devices.length - online,
    roomStatus: roomStatusOf(devices.map((d) => d.alarmSeverity)),
  };
};

export const sameAggregate = (a: RoomAggregate, b: RoomAggregate): boolean =>
  a.deviceCount === b.deviceCount && a.online === b.online && a.offline === b.offline && a.roomStatus === b.roomStatus;
