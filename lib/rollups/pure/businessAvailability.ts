import type { ConnectivityChange } from '#lib/devices/types';
import { DAY_MS, instantOf, localDayAt, MINUTE_MS, timeZoneName } from '#lib/shared/zone';

/**
 * Availability that matches how rooms are used
 * (docs/guide/rules/reports.md "Business-hours availability is computed from transitions, not from the hourly rollups"): from devices' connectivity
 * transitions over a window, counted inside business hours (or all day), outages shorter than
 * MIN_OUTAGE_SECONDS ignored, maintenance openings left out; a room's outage minutes and its
 * "unhealthy days" (more than 20 minutes of outage inside business hours on one local day).
 * Pure: O(transitions + days in the window + openings) per device, no I/O.
 */

/** [start, end) in epoch ms; lists of them are sorted and disjoint. */
export interface Interval {
  start: number;
  end: number;
}

export const DEFAULT_MIN_OUTAGE_SECONDS = 120;
/** A day with more outage than this inside business hours is unhealthy. */
const UNHEALTHY_DAY_MINUTES = 20;

const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** Weekly business hours in a zone: on `days` (0 = Monday), from `start` to `end` local minutes (end after start, at most 24:00). */
export interface BusinessHours {
  days: number[];
  start: number;
  end: number;
  timeZone: string;
}

type Problem = { field: string; message: string };

const TIME = /^([01]\d|2[0-4]):([0-5]\d)$/;
const minutesOf = (text: string): number | undefined => {
  const match = TIME.exec(text);
  if (!match) return undefined;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return minutes <= 24 * 60 ? minutes : undefined;
};
const dayIndex = (name: string) => DAY_NAMES.findIndex((day) => day.toLowerCase() === name.toLowerCase());

/**
 * Parses `Mon-Fri 08:00-18:00` (days: a name, a range `Mon-Fri`, or a comma list of both;
 * times HH:MM, end after start, `24:00` allowed; no overnight spans) in `timeZone` (IANA).
 */
export const parseBusinessHours = (text: string, timeZone = 'UTC'): BusinessHours | { problems: Problem[] } => {
  const fail = (message: string) => ({ problems: [{ field: 'BUSINESS_HOURS', message }] });
  const zone = timeZoneName(timeZone);
  if (!zone) return { problems: [{ field: 'BUSINESS_TIME_ZONE', message: `${timeZone} is not an IANA time zone` }] };
  const [daysText, timesText, ...rest] = text.trim().split(/\s+/);
  if (!daysText || !timesText || rest.length > 0) return fail('business hours look like "Mon-Fri 08:00-18:00"');
  const days = new Set<number>();
  for (const part of daysText.split(',')) {
    const [first = '', last, ...more] = part.split('-');
    const a = dayIndex(first);
    const b = last === undefined ? a : dayIndex(last);
    if (a < 0 || b < 0 || more.length > 0) return fail(`${part} is not a day or a range of days (Mon..Sun)`);
    for (let d = a; ; d = (d + 1) % 7) {
      days.add(d);
      if (d === b) break;
    }
  }
  const [startText = '', endText = '', ...extra] = timesText.split('-');
  const start = minutesOf(startText);
  const end = minutesOf(endText);
  if (start === undefined || end === undefined || extra.length > 0) return fail(`${timesText} is not HH:MM-HH:MM`);
  if (end <= start) return fail('business hours end after they start (no overnight spans)');
  return { days: [...days].sort((x, y) => x - y), start, end, timeZone: zone };
};

const mod = (a: number, n: number) => ((a % n) + n) % n;
/** 0 = Monday; local day 0 (1970-01-01) was a Thursday. */
const weekdayOf = (day: number) => mod(day + 3, 7);

/** A local day number as `YYYY-MM-DD`. */
const localDate = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/**
 * The local days of a window in a zone, each with the instants it covers: its business hours,
 * or (hours undefined) the whole local day (23 or 25 hours across a DST change), cut to the window.
 */
export const daysIn = (from: number, to: number, timeZone: string, hours?: BusinessHours): { date: string; span: Interval | undefined }[] => {
  const days: { date: string; span: Interval | undefined }[] = [];
  if (to <= from) return days;
  const last = localDayAt(timeZone, to - 1);
  for (let day = localDayAt(timeZone, from); day <= last; day++) {
    let span: Interval | undefined;
    if (!hours) span = { start: instantOf(timeZone, day * DAY_MS), end: instantOf(timeZone, (day + 1) * DAY_MS) };
    else if (hours.days.includes(weekdayOf(day))) {
      span = { start: instantOf(timeZone, day * DAY_MS + hours.start * MINUTE_MS), end: instantOf(timeZone, day * DAY_MS + hours.end * MINUTE_MS) };
    }
    const cut = span && { start: Math.max(span.start, from), end: Math.min(span.end, to) };
    days.push({ date: localDate(day), span: cut && cut.end > cut.start ? cut : undefined });
  }
  return days;
};

/** Sorted, merged (overlapping or touching intervals joined), empty ones dropped. */
export const normalize = (list: readonly Interval[]): Interval[] => {
  const sorted = list.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const i of sorted) {
    const top = out[out.length - 1];
    if (top && i.start <= top.end) top.end = Math.max(top.end, i.end);
    else out.push({ ...i });
  }
  return out;
};

/** The parts of `a` inside `b` (both sorted and disjoint). */
export const intersect = (a: readonly Interval[], b: readonly Interval[]): Interval[] => {
  const out: Interval[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    const start = Math.max(a[i]!.start, b[j]!.start);
    const end = Math.min(a[i]!.end, b[j]!.end);
    if (end > start) out.push({ start, end });
    if (a[i]!.end < b[j]!.end) i++;
    else j++;
  }
  return out;
};

/** The parts of `a` outside `b` (both sorted and disjoint). */
export const subtract = (a: readonly Interval[], b: readonly Interval[]): Interval[] => {
  const out: Interval[] = [];
  let j = 0;
  for (const interval of a) {
    let start = interval.start;
    while (j < b.length && b[j]!.end <= start) j++;
    for (let k = j; k < b.length && b[k]!.start < interval.end; k++) {
      if (b[k]!.start > start) out.push({ start, end: b[k]!.start });
      start = Math.max(start, b[k]!.end);
    }
    if (start < interval.end) out.push({ start, end: interval.end });
  }
  return out;
};

const total = (list: readonly Interval[]): number => list.reduce((sum, i) => sum + (i.end - i.start), 0);

/** One device over the window: its transitions inside it (any order) and whether it was connected when the window opened. */
export interface DeviceConnectivity {
  devicesn: string;
  transitions: readonly Pick<ConnectivityChange, 'at' | 'connected'>[];
  connectedAtStart: boolean;
  /** When it was first observed, if inside the window: time before it is not observed. */
  observedFrom?: number;
  /** Maintenance openings of this device alone (those of the whole room go in the options). */
  maintenance?: readonly Interval[];
}

/**
 * A device's outages in [from, to): the spans it was disconnected, without those shorter than
 * `minOutageSeconds`. An outage cut by the window's start or end is measured inside the window
 * only (one still open at `to` counts once it is long enough).
 */
export const outagesOf = (device: DeviceConnectivity, from: number, to: number, minOutageSeconds = DEFAULT_MIN_OUTAGE_SECONDS): Interval[] => {
  const start = Math.max(from, device.observedFrom ?? from);
  const changes = device.transitions
    .map((t) => ({ at: Date.parse(t.at), connected: t.connected }))
    .filter((t) => t.at >= start && t.at < to)
    .sort((a, b) => a.at - b.at);
  const out: Interval[] = [];
  let downSince: number | undefined = device.connectedAtStart ? undefined : start;
  for (const change of changes) {
    if (!change.connected && downSince === undefined) downSince = change.at;
    else if (change.connected && downSince !== undefined) {
      out.push({ start: downSince, end: change.at });
      downSince = undefined;
    }
  }
  if (downSince !== undefined) out.push({ start: downSince, end: to });
  return out.filter((i) => i.end - i.start >= minOutageSeconds * 1000);
};

interface AvailabilityOptions {
  from: number;
  to: number;
  /** Business hours; undefined: all day (24 h), days in `timeZone` (default UTC). */
  hours?: BusinessHours;
  timeZone?: string;
  minOutageSeconds?: number;
  /** Maintenance openings (lib/maintenance's openingsBetween) that apply to the whole room. */
  maintenance?: readonly Interval[];
}

interface RoomBusinessAvailability {
  /** Connected over observed device-time inside the counted hours, 0..1 with 4 decimals (1 when nothing was observed). */
  availability: number;
  /** Minutes (1 decimal) inside the counted hours in which at least one of the room's devices was out. */
  outageMinutes: number;
  /** Device-minutes (1 decimal) observed inside the counted hours (the availability's denominator). */
  observedMinutes: number;
  /** Device-minutes (1 decimal) of outage inside the counted hours (the availability's numerator's complement). */
  outageDeviceMinutes: number;
  /** Local dates with more than UNHEALTHY_DAY_MINUTES of outage inside the counted hours. */
  unhealthyDays: string[];
  deviceCount: number;
}

/** Recent daysIn answers: the rooms of one request share a few calendars (Intl is the cost, ~10 calls a day). */
const recentDays = new Map<string, ReturnType<typeof daysIn>>();
const RECENT_CALENDARS = 16;
const daysCached = (from: number, to: number, zone: string, hours: BusinessHours | undefined): ReturnType<typeof daysIn> => {
  const key = JSON.stringify([from, to, zone, hours ?? null]);
  let days = recentDays.get(key);
  if (!days) {
    if (recentDays.size >= RECENT_CALENDARS) recentDays.delete(recentDays.keys().next().value!);
    days = daysIn(from, to, zone, hours);
    recentDays.set(key, days);
  }
  return days;
};

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * One room's availability over [from, to): each device observed during the counted hours
 * (business hours or all day) less maintenance, its outages (the short ones ignored) inside them;
 * availability as device-time, outage minutes and unhealthy days as the union of the devices'
 * outages (a room is out while any of its devices is).
 */
export const roomAvailability = (devices: readonly DeviceConnectivity[], options: AvailabilityOptions): RoomBusinessAvailability => {
  const { from, to } = options;
  const zone = options.hours?.timeZone ?? options.timeZone ?? 'UTC';
  const days = daysCached(from, to, zone, options.hours);
  const counted = subtract(normalize(days.flatMap((d) => (d.span ? [d.span] : []))), normalize(options.maintenance ?? []));
  let observed = 0;
  let down = 0;
  const outages: Interval[] = [];
  for (const device of devices) {
    const own = intersect(counted, [{ start: Math.max(from, device.observedFrom ?? from), end: to }]);
    const seen = device.maintenance?.length ? subtract(own, normalize(device.maintenance)) : own;
    const out = intersect(normalize(outagesOf(device, from, to, options.minOutageSeconds)), seen);
    observed += total(seen);
    down += total(out);
    outages.push(...out);
  }
  const roomOut = normalize(outages);
  const unhealthyDays = days.filter((d) => d.span && total(intersect(roomOut, [d.span])) > UNHEALTHY_DAY_MINUTES * MINUTE_MS).map((d) => d.date);
  return {
    availability: observed > 0 ? Math.round(((observed - down) / observed) * 10_000) / 10_000 : 1,
    outageMinutes: round1(total(roomOut) / MINUTE_MS),
    observedMinutes: round1(observed / MINUTE_MS),
    outageDeviceMinutes: round1(down / MINUTE_MS),
    unhealthyDays,
    deviceCount: devices.length,
  };
};

const unhealthyCount = (room: { unhealthyDays?: number | readonly string[] }): number =>
  typeof room.unhealthyDays === 'number' ? room.unhealthyDays : (room.unhealthyDays?.length ?? 0);
const compare = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/** Rooms worst first: lower availability, then more unhealthy days, then more outage minutes, then by name. */
export const worstRoomsFirst = <T extends { availability: number; unhealthyDays?: number | readonly string[]; outageMinutes: number; room: string; location?: string; region?: string }>(a: T, b: T): number =>
  a.availability - b.availability ||
  unhealthyCount(b) - unhealthyCount(a) ||
  b.outageMinutes - a.outageMinutes ||
  compare(a.region ?? '', b.region ?? '') ||
  compare(a.location ?? '', b.location ?? '') ||
  compare(a.room, b.room);
