import type { Place } from '#lib/devices/types';

/** Devices of a room that are connected, and that are observed (all of them). */
export interface RoomCounts {
  connected: number;
  observed: number;
}

/**
 * One room's connectivity over one UTC day: device-seconds connected and observed per hour,
 * accumulated from `since` (the day's start, or the room's first observation) to `lastAt`,
 * and the counts that hold from `lastAt` on.
 */
export interface DayRollup extends RoomCounts {
  day: string;
  since: string;
  lastAt: string;
  connectedSeconds: number[];
  observedSeconds: number[];
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayStart = (day: string) => Date.parse(`${day}T00:00:00.000Z`);
const iso = (ms: number) => new Date(ms).toISOString();
const round = (n: number) => Math.round(n * 1000) / 1000;

/** Adds `counts` held over [from, to) (within one day) to the hourly buckets of a rollup. */
const accumulate = (rollup: DayRollup, from: number, to: number, counts: RoomCounts): void => {
  const start = dayStart(rollup.day);
  for (let t = from; t < to; ) {
    const hour = Math.floor((t - start) / HOUR);
    const end = Math.min(to, start + (hour + 1) * HOUR);
    const seconds = (end - t) / 1000;
    rollup.connectedSeconds[hour] = round(rollup.connectedSeconds[hour]! + counts.connected * seconds);
    rollup.observedSeconds[hour] = round(rollup.observedSeconds[hour]! + counts.observed * seconds);
    t = end;
  }
};

const fresh = (day: string, since: number, counts: RoomCounts): DayRollup => ({
  day,
  since: iso(since),
  lastAt: iso(since),
  connected: counts.connected,
  observed: counts.observed,
  connectedSeconds: new Array<number>(24).fill(0),
  observedSeconds: new Array<number>(24).fill(0),
});

/**
 * The rollup items to write when a room's counts become `counts` at `at`, given its latest
 * rollup: that day's item brought up to `at` (or closed at midnight, and the new day's item
 * filled from midnight with the counts that held meanwhile). Days without any change get no
 * item: the counts of the item before them held all day. Pure; applying the result and
 * advancing again with the same counts changes nothing but `lastAt`.
 */
export const advance = (latest: DayRollup | undefined, at: string, counts: RoomCounts): DayRollup[] => {
  const now = Date.parse(at);
  if (!latest) return [fresh(dayOf(now), now, counts)];
  const last = Date.parse(latest.lastAt);
  if (now <= last) return [{ ...latest, ...counts }];
  const current: DayRollup = { ...latest, connectedSeconds: [...latest.connectedSeconds], observedSeconds: [...latest.observedSeconds] };
  const end = dayStart(latest.day) + DAY;
  accumulate(current, last, Math.min(now, end), latest);
  if (now < end) return [{ ...current, lastAt: at, ...counts }];
  const closed: DayRollup = { ...current, lastAt: iso(end) };
  const next = fresh(dayOf(now), dayStart(dayOf(now)), latest);
  accumulate(next, dayStart(next.day), now, latest);
  return [closed, { ...next, lastAt: at, ...counts }];
};

/** Device-seconds connected and observed in a window. */
export interface Observed {
  connectedSeconds: number;
  observedSeconds: number;
}

const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

/**
 * Connected and observed device-seconds of one room over [from, to), from its rollups (sorted
 * by day, the last one before the window first when there is one). Inside a rollup, hours only
 * partly in the window count in proportion; between rollups and after the last one, the last
 * counts held. `fallback` stands for a room that has no rollup at all (counts never changed).
 */
export const observedIn = (rollups: readonly DayRollup[], from: string, to: string, fallback?: RoomCounts): Observed => {
  const w0 = Date.parse(from);
  const w1 = Date.parse(to);
  const total: Observed = { connectedSeconds: 0, observedSeconds: 0 };
  const hold = (counts: RoomCounts, a: number, b: number) => {
    const seconds = overlap(a, b, w0, w1) / 1000;
    total.connectedSeconds += counts.connected * seconds;
    total.observedSeconds += counts.observed * seconds;
  };
  if (rollups.length === 0) {
    if (fallback) hold(fallback, w0, w1);
    return total;
  }
  rollups.forEach((rollup, i) => {
    const start = dayStart(rollup.day);
    const since = Date.parse(rollup.since);
    const last = Date.parse(rollup.lastAt);
    for (let hour = 0; hour < 24; hour++) {
      const h0 = Math.max(since, start + hour * HOUR);
      const h1 = Math.min(last, start + (hour + 1) * HOUR);
      if (h1 <= h0) continue;
      const share = overlap(h0, h1, w0, w1) / (h1 - h0);
      total.connectedSeconds += rollup.connectedSeconds[hour]! * share;
      total.observedSeconds += rollup.observedSeconds[hour]! * share;
    }
    const next = rollups[i + 1];
    hold(rollup, last, next ? Date.parse(next.since) : w1);
  });
  return total;
};

/** Availability as answered: connected over observed device-time, 0..1 with 4 decimals (1 when nothing was observed). */
export const ratio = ({ connectedSeconds, observedSeconds }: Observed): number =>
  observedSeconds > 0 ? Math.round((connectedSeconds / observedSeconds) * 10_000) / 10_000 : 1;

export interface RoomAvailability extends Place {
  availability: number;
  deviceCount: number;
}

/** Worst rooms first; ties in region, location, room order. */
export const worstFirst = (a: RoomAvailability, b: RoomAvailability): number =>
  a.availability - b.availability ||
  (a.region < b.region ? -1 : a.region > b.region ? 1 : 0) ||
  (a.location < b.location ? -1 : a.location > b.location ? 1 : 0) ||
  (a.room < b.room ? -1 : a.room > b.room ? 1 : 0);

/** The UTC days a window touches, first and last (`YYYY-MM-DD`). */
export const windowDays = (from: string, to: string): { first: string; last: string } => ({
  first: dayOf(Date.parse(from)),
  last: dayOf(Math.max(Date.parse(from), Date.parse(to) - 1)),
});

/** The longest availability window. */
const MAX_AVAILABILITY_DAYS = 31;

type Problem = { field: string; message: string };

/**
 * The window of an availability query: `to` defaults to now (and is cut at now: the future is
 * not observed), `from` to 24 hours before `to`; `from` before `to`, at most 31 days apart.
 */
export const availabilityWindow = (input: { from?: string; to?: string }, now: number): { from: string; to: string } | { problems: Problem[] } => {
  const to = Math.min(input.to ? Date.parse(input.to) : now, now);
  const from = input.from ? Date.parse(input.from) : to - DAY;
  if (from >= to) return { problems: [{ field: 'body.from', message: 'from must be before to (and before now)' }] };
  if (to - from > MAX_AVAILABILITY_DAYS * DAY) {
    return { problems: [{ field: 'body.from', message: `from and to must be at most ${MAX_AVAILABILITY_DAYS} days apart` }] };
  }
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
};
