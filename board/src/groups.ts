/*
 * How the board lays rooms out: grouped by region and location, each group with its counts and
 * worst status, the worst groups and the worst rooms first; and the marks a tile carries from the
 * room's firing alarms and maintenance windows. Plain data in, plain data out
 * (tests/unit/board-groups.test.ts).
 */
import { openMaintenance, STATUSES, type Alarm, type Room, type RoomStatus } from './state';

/** 0 for Critical .. 4 for OK: lower is worse. */
export const rankOf = (status: RoomStatus): number => STATUSES.indexOf(status);

export const worstOf = (statuses: readonly RoomStatus[]): RoomStatus =>
  statuses.reduce<RoomStatus>((worst, status) => (rankOf(status) < rankOf(worst) ? status : worst), 'OK');

export interface Group {
  region: string;
  location: string;
  rooms: Room[];
  /** Rooms of the group per status. */
  counts: Record<RoomStatus, number>;
  worst: RoomStatus;
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Worse status first, then by name, so that equal rooms keep their place between renders. */
const worseRoomFirst = (a: Room, b: Room) => rankOf(a.roomStatus) - rankOf(b.roomStatus) || byName(a.room, b.room);

/**
 * Groups worst first: by worst status, then by how many rooms share that worst status, then by
 * region and location, so that the group needing attention most is the one read first.
 */
const worseGroupFirst = (a: Group, b: Group) =>
  rankOf(a.worst) - rankOf(b.worst) || b.counts[b.worst] - a.counts[a.worst] || byName(a.region, b.region) || byName(a.location, b.location);

export const groupRooms = (rooms: readonly Room[]): Group[] => {
  const groups = new Map<string, Room[]>();
  for (const room of rooms) {
    const key = JSON.stringify([room.region, room.location]);
    groups.set(key, [...(groups.get(key) ?? []), room]);
  }
  return [...groups.values()]
    .map((members): Group => {
      const counts = Object.fromEntries(STATUSES.map((status) => [status, members.filter((room) => room.roomStatus === status).length])) as Record<RoomStatus, number>;
      return { region: members[0]!.region, location: members[0]!.location, rooms: [...members].sort(worseRoomFirst), counts, worst: worstOf(members.map((room) => room.roomStatus)) };
    })
    .sort(worseGroupFirst);
};

export type Mark = 'acknowledged' | 'silenced' | 'maintenance';

export interface RoomMarks {
  /** Firing alarms of the room the board knows of. */
  firing: number;
  acknowledged: number;
  silenced: number;
  /** Whole-room marks: every firing alarm acknowledged / silenced, or an open maintenance window. */
  marks: Mark[];
}

export const sameRoom = (alarm: Pick<Alarm, 'region' | 'location' | 'room'>, room: Pick<Room, 'region' | 'location' | 'room'>): boolean =>
  alarm.region === room.region && alarm.location === room.location && alarm.room === room.room;

/** A room's marks at `now` from its firing alarms (as the board holds them) and its maintenance windows. */
export const marksOf = (room: Room, firing: readonly Alarm[], now: string): RoomMarks => {
  const own = firing.filter((alarm) => sameRoom(alarm, room));
  const acknowledged = own.filter((alarm) => alarm.acknowledged).length;
  const silenced = own.filter((alarm) => alarm.silenced).length;
  const marks: Mark[] = [];
  if (own.length > 0 && acknowledged === own.length) marks.push('acknowledged');
  if (own.length > 0 && silenced === own.length) marks.push('silenced');
  if (openMaintenance(room, now).length > 0) marks.push('maintenance');
  return { firing: own.length, acknowledged, silenced, marks };
};
