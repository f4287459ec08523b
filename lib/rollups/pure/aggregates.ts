import { SEVERITIES } from '#lib/shared/severity';
import { roomKey, type Place, type RoomAggregate, type RoomStatus, type Severity, type StoredDevice } from '#lib/devices/types';

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
export const aggregateOf = (place: Place, devices: readonly Member[]): RoomAggregate => {
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

/** The aggregate every room should have for a given fleet. */
export const expectedAggregates = (fleet: readonly StoredDevice[]): Map<string, RoomAggregate> => {
  const byRoom = new Map<string, StoredDevice[]>();
  for (const device of fleet) {
    const key = roomKey(device.details);
    const members = byRoom.get(key);
    if (members) members.push(device);
    else byRoom.set(key, [device]);
  }
  return new Map([...byRoom].map(([key, members]) => [key, aggregateOf(members[0]!.details, members)]));
};

/** Rooms whose stored aggregate is missing, stale, or left over: recompute these. */
export const staleRooms = (stored: readonly RoomAggregate[], expected: Map<string, RoomAggregate>): Place[] => {
  const stale = new Map<string, Place>();
  const seen = new Set<string>();
  for (const room of stored) {
    const key = roomKey(room);
    seen.add(key);
    const want = expected.get(key);
    if (!want || !sameAggregate(room, want)) stale.set(key, room);
  }
  for (const [key, want] of expected) if (!seen.has(key)) stale.set(key, want);
  return [...stale.values()];
};
