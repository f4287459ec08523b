/*
 * The status board's state and how each message changes it: plain data in, plain data out,
 * no DOM, no network (unit-tested in tests/unit/board-state.test.ts).
 */
import type { StatusCounts } from '../../lib/shared/statusCounts';

export type RoomStatus = 'Critical' | 'Major' | 'Minor' | 'Info' | 'OK';
export const STATUSES: readonly RoomStatus[] = ['Critical', 'Major', 'Minor', 'Info', 'OK'];

export interface Filter {
  regionName: string;
  locationName: string;
  roomName: string;
}

/** An open maintenance window that holds a room, as POST /live/rooms answers it. */
export interface HeldBy {
  id: string;
  comment: string;
  closesAt: string;
}

export interface Room {
  region: string;
  location: string;
  room: string;
  roomStatus: RoomStatus;
  deviceCount: number;
  online: number;
  offline: number;
  /** Present while an open maintenance window of places holds the room (POST /live/rooms; pushes do not carry it). */
  inMaintenance?: true;
  maintenance?: HeldBy[];
}

export interface Alarm {
  id: string;
  watcherId?: string;
  severity: number;
  devicesn: string;
  region: string;
  location: string;
  room: string;
  raisedAt: string;
  description?: string;
  /** As GET /alarms and the pushes answer them. */
  acknowledgedAt?: string;
  silencedBy?: string[];
  /** The open maintenance windows that hold it (computed when the alarm is read, never stored on it: GET /alarms and the pushes; docs/guide/rules/maintenance.md "An alarm's maintenance windows are computed when it is read, not stored on it"). */
  inMaintenance?: string[];
  /** What the board shows, from the two above (or from the event that announced them). */
  acknowledged?: boolean;
  silenced?: boolean;
}

export type Message =
  | { type: 'subscribed'; filter: Filter; snapshot: Counts }
  | { type: 'room'; at: string; room: Room }
  | { type: 'alarm'; event: 'raised' | 'cleared' | 'acknowledged' | 'silenced' | 'unsilenced'; at: string; alarm: Alarm }
  | { type: 'error'; message: string };

/** The six counts of roomStatusCount (the API's own type). */
export type Counts = StatusCounts;

export interface BoardState {
  /** The scope the board shows; pushes about rooms outside it are ignored. */
  filter: Filter;
  /** Rooms in scope by `roomKey`, each with the time of the newest change applied. */
  rooms: Map<string, { room: Room; at: string }>;
  /** The page of open alarms the list shows, newest first, at most `alarmLimit`. */
  alarms: Alarm[];
  alarmLimit: number;
  /** Whether that page is the newest one: only there do raised alarms enter the list. */
  newestPage: boolean;
  /** Every firing alarm in scope the board knows of, by id: the tiles' marks come from them. */
  firing: Map<string, Alarm>;
}

export const roomKey = (room: Pick<Room, 'region' | 'location' | 'room'>): string => [room.region, room.location, room.room].join(' / ');

export const ALL: Filter = { regionName: 'all', locationName: 'all', roomName: 'all' };

export const emptyState = (alarmLimit = 8, filter: Filter = ALL): BoardState => ({ filter, rooms: new Map(), alarms: [], alarmLimit, newestPage: true, firing: new Map() });

/** Whether a room lies in a scope: each name matches, or the scope says `all` there (as device queries). */
export const inScope = (filter: Filter, place: Pick<Room, 'region' | 'location' | 'room'>): boolean =>
  (filter.regionName === 'all' || filter.regionName === place.region) &&
  (filter.locationName === 'all' || filter.locationName === place.location) &&
  (filter.roomName === 'all' || filter.roomName === place.room);

/** An alarm's marks from what the API says of it: acknowledged, silenced by at least one silence. */
const marked = (alarm: Alarm): Alarm => ({
  ...alarm,
  acknowledged: alarm.acknowledged || alarm.acknowledgedAt !== undefined,
  silenced: alarm.silencedBy ? alarm.silencedBy.length > 0 : alarm.silenced,
});

/**
 * A fresh picture from the API (POST /live/rooms, a page of GET /alarms, and every firing alarm
 * in scope for the marks, by default the page itself): replaces what the board held.
 */
export const loaded = (state: BoardState, rooms: readonly Room[], alarms: readonly Alarm[], at: string, firing: readonly Alarm[] = alarms): BoardState => ({
  ...state,
  rooms: new Map(rooms.map((room) => [roomKey(room), { room, at }])),
  alarms: alarms.slice(0, state.alarmLimit).map(marked),
  firing: new Map(firing.map((alarm) => [alarm.id, marked(alarm)])),
});

/** Another page of the alarm list (`newest`: the first one, where raised alarms enter). */
export const showPage = (state: BoardState, alarms: readonly Alarm[], newest: boolean): BoardState => ({
  ...state,
  alarms: alarms.slice(0, state.alarmLimit).map(marked),
  newestPage: newest,
});

/** One alarm as the API answered it after an action (acknowledge): the list and the marks follow at once. */
export const alarmChanged = (state: BoardState, alarm: Alarm): BoardState => {
  const known = state.firing.get(alarm.id) ?? state.alarms.find((a) => a.id === alarm.id);
  const changed = marked({ ...alarm, silenced: known?.silenced, inMaintenance: alarm.inMaintenance ?? known?.inMaintenance });
  const firing = new Map(state.firing);
  if (state.firing.has(alarm.id)) firing.set(alarm.id, changed);
  return { ...state, firing, alarms: state.alarms.map((a) => (a.id === alarm.id ? changed : a)) };
};

/** GET /alarms's order: newest first, then by watcher and device, both descending (the API's sort key). */
const orderKey = (alarm: Alarm) => `${alarm.raisedAt}#${alarm.watcherId ?? ''}#${alarm.devicesn}`;
const newestFirst = (a: Alarm, b: Alarm) => (orderKey(a) < orderKey(b) ? 1 : orderKey(a) > orderKey(b) ? -1 : 0);

/** A pushed room keeps the maintenance the board knew of it: pushes come from the rollups, which know nothing of windows. */
const withMaintenanceOf = (room: Room, known: Room | undefined): Room =>
  room.maintenance === undefined && known?.maintenance ? { ...room, inMaintenance: true, maintenance: known.maintenance } : room;

/**
 * One pushed message applied. Ignored: news about a room outside the board's scope (a
 * subscription the server has not yet dropped, or one meant for an earlier scope), and news
 * about a room older than what the board shows.
 */
export const applyMessage = (state: BoardState, message: Message): BoardState => {
  if (message.type === 'room' && !inScope(state.filter, message.room)) return state;
  if (message.type === 'alarm' && !inScope(state.filter, message.alarm)) return state;
  if (message.type === 'room') {
    const key = roomKey(message.room);
    const known = state.rooms.get(key);
    if (known && known.at > message.at) return state;
    const rooms = new Map(state.rooms);
    if (message.room.deviceCount === 0) rooms.delete(key);
    else rooms.set(key, { room: withMaintenanceOf(message.room, known?.room), at: message.at });
    return { ...state, rooms };
  }
  if (message.type === 'alarm') {
    const others = state.alarms.filter((alarm) => alarm.id !== message.alarm.id);
    const firing = new Map(state.firing);
    if (message.event === 'cleared') {
      firing.delete(message.alarm.id);
      return { ...state, alarms: others, firing };
    }
    const known = state.alarms.find((a) => a.id === message.alarm.id) ?? state.firing.get(message.alarm.id);
    const alarm = marked({
      ...message.alarm,
      acknowledged: message.event === 'acknowledged' || known?.acknowledged,
      silenced: message.event === 'silenced' || (message.event !== 'unsilenced' && known?.silenced),
    });
    firing.set(alarm.id, alarm);
    // an older page keeps its alarms where they are: only their marks change
    if (!state.newestPage) return { ...state, firing, alarms: state.alarms.map((a) => (a.id === alarm.id ? alarm : a)) };
    const alarms = [...others, alarm].sort(newestFirst);
    return { ...state, firing, alarms: alarms.slice(0, state.alarmLimit) };
  }
  return state;
};

/** The six counts of roomStatusCount, from the rooms the board holds. */
export const countsOf = (state: BoardState): Counts => {
  const rooms = [...state.rooms.values()].map(({ room }) => room);
  const count = (status: RoomStatus) => rooms.filter((room) => room.roomStatus === status).length;
  return {
    TotalRooms: rooms.length,
    CriticalStatus: count('Critical'),
    MajorStatus: count('Major'),
    MinorStatus: count('Minor'),
    InfoStatus: count('Info'),
    OKStatus: count('OK'),
  };
};

/** Rooms in a stable order (region, location, room), so a tile changes colour in place. */
export const roomsInOrder = (state: BoardState): Room[] =>
  [...state.rooms.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, { room }]) => room);

/** The windows still open at `now` that hold a room (a mark whose opening has closed is dropped before the next reload). */
export const openMaintenance = (room: Room, now: string): HeldBy[] => (room.maintenance ?? []).filter((held) => held.closesAt > now);

/** The rooms in order, those in maintenance at `now` apart (their own group on the board). */
export const roomsApart = (state: BoardState, now: string): { inService: Room[]; inMaintenance: Room[] } => {
  const rooms = roomsInOrder(state);
  return {
    inService: rooms.filter((room) => openMaintenance(room, now).length === 0),
    inMaintenance: rooms.filter((room) => openMaintenance(room, now).length > 0),
  };
};

export const SEVERITY_NAMES: Record<number, RoomStatus> = { 1: 'Critical', 2: 'Major', 3: 'Minor', 4: 'Info' };
