/**
 * When a maintenance window is open (docs/guide/rules/maintenance.md). Pure: a
 * schedule and instants (epoch ms) in, instants out.
 *
 * An opening starts on a matching local day at a local start time and ends `durationMinutes` of
 * wall-clock time later, both read on the zone's wall clock
 * (docs/guide/rules/maintenance.md "Maintenance windows follow the wall clock"): a 22:00-04:00 window lasts 6
 * hours on most nights, 5 on the night clocks spring forward, 7 on the night they fall
 * back. A start or end the wall clock skips is taken at the first instant after the gap; one it
 * shows twice at its first occurrence. An opening the gap swallows whole (its start and end fall
 * on the same instant) does not happen.
 *
 * `startsAt` and `endsAt` bound the openings' starts (RFC 5545's DTSTART and UNTIL): an opening
 * belongs to the window when startsAt <= start < endsAt, and then runs its whole length. Openings
 * of one schedule never overlap (compileSchedule refuses a duration as long as the shortest time
 * between two starts); two the wall clock makes touch are one opening.
 */
import { parseRrule, weeklyRule, WEEKDAYS, type Problem, type Rule, type Weekday } from './rrule';
import { DAY_MS, instantOf, localDayAt, MINUTE_MS, offsetAt, timeZoneName } from '#lib/shared/zone';

export { WEEKDAYS, MAX_INTERVAL, type Weekday, type Problem } from './rrule';

export const MAX_DURATION_MINUTES = 7 * 24 * 60;

/**
 * The most openings a schedule may have in one local day (BYHOUR times BYMINUTE): every reader
 * of a window (availability, the engine, GET /maintenance) pays per opening, so a schedule of
 * hundreds a day made one scoped operator's window cost the whole fleet's availability its
 * answer. A stored window above it reads as ended (docs/guide/rules/maintenance.md "A maintenance window opens at most 48 times a day").
 */
export const MAX_OPENINGS_A_DAY = 48;

/** A schedule as clients send it and the store keeps it: the weekly form or an RRULE, a duration, a zone. */
export interface ScheduleSpec {
  days?: Weekday[];
  /** `HH:MM`, local. */
  start?: string;
  rrule?: string;
  durationMinutes: number;
  /** An IANA zone; absent: the place's default, when one is known. */
  timeZone?: string;
}

/** A schedule ready to evaluate. */
export interface Schedule {
  rule: Rule;
  durationMinutes: number;
  timeZone: string;
  /** Epoch ms: the first instant an opening may start. */
  startsAt?: number;
  /** Epoch ms: openings start before it. */
  endsAt?: number;
}

/** One opening: from `start` (inclusive) to `end` (exclusive), epoch ms. */
export interface Opening {
  start: number;
  end: number;
}

const mod = (a: number, n: number) => ((a % n) + n) % n;
/** 0 = Monday; day 0 (1970-01-01) was a Thursday. */
const weekdayOf = (day: number) => mod(day + 3, 7);
const weekStartOf = (day: number, rule: Rule) => day - mod(weekdayOf(day) - WEEKDAYS.indexOf(rule.weekStart), 7);
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** The local day INTERVAL counts from: startsAt's (compileSchedule requires it when INTERVAL > 1). */
const anchorDay = (schedule: Schedule) => (schedule.startsAt === undefined ? 0 : localDayAt(schedule.timeZone, schedule.startsAt));

/** Whether the rule may open on local day `day`. */
const dayMatches = (rule: Rule, day: number, anchor: number): boolean => {
  if (rule.byDay.length > 0 && !rule.byDay.includes(WEEKDAYS[weekdayOf(day)]!)) return false;
  if (rule.interval === 1) return true;
  if (rule.freq === 'DAILY') return mod(day - anchor, rule.interval) === 0;
  return mod((weekStartOf(day, rule) - weekStartOf(anchor, rule)) / 7, rule.interval) === 0;
};

/** The longest there may be between two starts, in days, and some: how far a search looks. */
const horizonDays = (rule: Rule) => 7 * rule.interval + 9;

/**
 * The zone's offset over local days `day - 1` to `day + 1`, when it is the same at both ends of
 * them (most days: zones change their offset at most twice a year), else undefined. Inside such a
 * span `instantOf` answers `local - offset`, so the openings of a day cost two Intl calls in all
 * rather than several each: a schedule of MAX_OPENINGS_A_DAY openings a day stays cheap.
 */
const steadyOffset = (zone: string, day: number): number | undefined => {
  const before = offsetAt(zone, (day - 1) * DAY_MS);
  return offsetAt(zone, (day + 2) * DAY_MS) === before ? before : undefined;
};

const openingOn = (schedule: Schedule, day: number, time: number, steady: number | undefined): Opening => {
  const local = day * DAY_MS + time * MINUTE_MS;
  const end = local + schedule.durationMinutes * MINUTE_MS;
  if (steady !== undefined) return { start: local - steady, end: end < (day + 1) * DAY_MS ? end - steady : instantOf(schedule.timeZone, end) };
  return { start: instantOf(schedule.timeZone, local), end: instantOf(schedule.timeZone, end) };
};

const pastEnd = (schedule: Schedule, day: number, start?: number): boolean => {
  const { until } = schedule.rule;
  if (until && 'day' in until && day > until.day) return true;
  if (start === undefined) return false;
  return (schedule.endsAt !== undefined && start >= schedule.endsAt) || (until !== undefined && 'instant' in until && start > until.instant);
};

/** The openings of local days `from..to`, in order (each one whole, not yet merged). */
function* forward(schedule: Schedule, from: number, to: number): Generator<Opening> {
  const anchor = anchorDay(schedule);
  for (let day = from; day <= to && !pastEnd(schedule, day); day++) {
    if (!dayMatches(schedule.rule, day, anchor)) continue;
    const steady = steadyOffset(schedule.timeZone, day);
    for (const time of schedule.rule.times) {
      const opening = openingOn(schedule, day, time, steady);
      if (pastEnd(schedule, day, opening.start)) return;
      if (opening.start >= (schedule.startsAt ?? -Infinity) && opening.end > opening.start) yield opening;
    }
  }
}

/** The openings of local days `from` down to `to`, latest first. */
function* backward(schedule: Schedule, from: number, to: number): Generator<Opening> {
  const anchor = anchorDay(schedule);
  const times = [...schedule.rule.times].reverse();
  for (let day = from; day >= to; day--) {
    if (!dayMatches(schedule.rule, day, anchor) || pastEnd(schedule, day)) continue;
    const steady = steadyOffset(schedule.timeZone, day);
    for (const time of times) {
      const opening = openingOn(schedule, day, time, steady);
      if (opening.start < (schedule.startsAt ?? -Infinity)) return;
      if (!pastEnd(schedule, day, opening.start) && opening.end > opening.start) yield opening;
    }
  }
}

/**
 * Whether the wall clock springs forward at `ms`: the only instant two openings can touch at,
 * since the local times of a gap all map to it (and distinct ones elsewhere to distinct instants).
 */
const springsForwardAt = (zone: string, ms: number) => offsetAt(zone, ms - 1000) < offsetAt(zone, ms);

/**
 * The openings that end after `after` and start on a local day up to `lastDay`, in order, those
 * that touch made one (reaching back before `after` and on past `lastDay` where they touch).
 */
function* openingsAfter(schedule: Schedule, after: number, lastDay: number): Generator<Opening> {
  const zone = schedule.timeZone;
  // an opening of an earlier local day ends (with an hour or two of clock change) before `after`
  const firstDay = localDayAt(zone, Math.max(after, schedule.startsAt ?? after)) - Math.ceil(schedule.durationMinutes / 1440) - 2;
  let current: Opening | undefined;
  let first = true;
  const done = (opening: Opening): Opening => {
    const whole = first && springsForwardAt(zone, opening.start) ? reachBack(schedule, opening, firstDay - 1) : opening;
    first = false;
    return whole;
  };
  for (const opening of forward(schedule, firstDay, lastDay)) {
    if (current && opening.start <= current.end) {
      current = { start: current.start, end: Math.max(current.end, opening.end) };
      continue;
    }
    if (current && current.end > after) yield done(current);
    current = opening;
  }
  if (!current || current.end <= after) return;
  if (springsForwardAt(zone, current.end)) {
    for (const later of forward(schedule, lastDay + 1, lastDay + horizonDays(schedule.rule))) {
      if (later.start > current.end) break;
      current = { start: current.start, end: Math.max(current.end, later.end) };
    }
  }
  yield done(current);
}

/** `opening` joined with the earlier openings that touch it (their days end at `fromDay`). */
const reachBack = (schedule: Schedule, opening: Opening, fromDay: number): Opening => {
  let start = opening.start;
  for (const earlier of backward(schedule, fromDay, fromDay - horizonDays(schedule.rule))) {
    if (earlier.end < start) break;
    start = Math.min(start, earlier.start);
  }
  return { start, end: opening.end };
};

const searchEnd = (schedule: Schedule, at: number) => localDayAt(schedule.timeZone, Math.max(at, schedule.startsAt ?? at)) + horizonDays(schedule.rule);

/** The opening under way at `at` (start <= at < end), if any. */
export const openingAt = (schedule: Schedule, at: number): Opening | undefined => {
  const [next] = openingsAfter(schedule, at, localDayAt(schedule.timeZone, at) + 1);
  return next && next.start <= at ? next : undefined;
};

export const isOpenAt = (schedule: Schedule, at: number): boolean => openingAt(schedule, at) !== undefined;

/** The first opening that starts after `after` (strictly), if the window opens again at all. */
export const nextOpening = (schedule: Schedule, after: number): Opening | undefined => {
  for (const opening of openingsAfter(schedule, after, searchEnd(schedule, after))) if (opening.start > after) return opening;
  return undefined;
};

/** When the window next closes after `after`: the end of the opening under way, else of the next one. */
export const nextClosing = (schedule: Schedule, after: number): number | undefined => {
  const [next] = openingsAfter(schedule, after, searchEnd(schedule, after));
  return next?.end;
};

/** The openings overlapping [from, to), in order (availability leaves them out). */
export const openingsBetween = (schedule: Schedule, from: number, to: number): Opening[] => {
  const found: Opening[] = [];
  if (to <= from) return found;
  for (const opening of openingsAfter(schedule, from, localDayAt(schedule.timeZone, to) + 1)) {
    if (opening.start >= to) break;
    found.push(opening);
  }
  return found;
};

export type WindowStatus = 'active' | 'scheduled' | 'ended';

/** Open now (active), opening later (scheduled), or never again (ended); and when it next opens and closes. */
export const statusAt = (schedule: Schedule, now: number): { status: WindowStatus; nextOpening: number | undefined; nextClosing: number | undefined } => {
  const open = openingAt(schedule, now);
  const next = nextOpening(schedule, now);
  return { status: open ? 'active' : next ? 'scheduled' : 'ended', nextOpening: next?.start, nextClosing: open?.end ?? next?.end };
};

/**
 * The shortest time between two starts of the rule, in minutes of wall-clock time, over two of
 * its cycles from local day `anchor`; undefined when it never starts.
 */
const shortestGap = (rule: Rule, anchor: number): number | undefined => {
  const cycle = rule.freq === 'WEEKLY' ? 7 * rule.interval : (7 * rule.interval) / gcd(rule.interval, 7);
  const starts: number[] = [];
  for (let day = anchor; day < anchor + 2 * cycle; day++) if (dayMatches(rule, day, anchor)) starts.push(...rule.times.map((time) => day * 1440 + time));
  if (starts.length === 0) return undefined;
  return Math.min(...starts.slice(1).map((start, i) => start - starts[i]!));
};

/**
 * The latest startsAt: an opening that starts or ends after year 9999 (a week at most after it,
 * plus at most 7 days) has no ISO 8601 date-time to answer as nextOpening or nextClosing.
 */
const LATEST_STARTS_AT = Date.parse('9999-01-01T00:00:00Z');

/**
 * Checks a schedule as sent and compiles it, or answers the problems, each naming its field.
 * `defaultTimeZone`: the place's zone, taken when the schedule names none
 * (docs/guide/rules/maintenance.md "A window's time zone: sent, or the place's default, stored resolved").
 */
export const compileSchedule = (
  spec: ScheduleSpec,
  bounds: { startsAt?: string; endsAt?: string },
  defaultTimeZone?: string,
): { schedule: Schedule } | { problems: Problem[] } => {
  const problems: Problem[] = [];
  let rule: Rule | undefined;
  if (spec.rrule !== undefined && (spec.days !== undefined || spec.start !== undefined)) {
    problems.push({ field: 'body.schedule', message: 'schedule takes either days and start (weekly) or rrule, not both' });
  } else if (spec.rrule !== undefined) {
    const parsed = parseRrule(spec.rrule);
    if ('problems' in parsed) problems.push(...parsed.problems);
    else rule = parsed;
  } else if (spec.days === undefined || spec.start === undefined) {
    problems.push({ field: spec.days === undefined ? 'body.schedule.days' : 'body.schedule.start', message: 'schedule needs days and start (weekly), or rrule' });
  } else rule = weeklyRule(spec.days, spec.start);
  if (rule && rule.times.length > MAX_OPENINGS_A_DAY) {
    problems.push({
      field: 'body.schedule.rrule',
      message: `rrule ${JSON.stringify(spec.rrule)} opens ${rule.times.length} times a day (each BYHOUR with each BYMINUTE); a schedule opens at most ${MAX_OPENINGS_A_DAY} times a day`,
    });
    rule = undefined;
  }

  if (!Number.isInteger(spec.durationMinutes) || spec.durationMinutes < 1 || spec.durationMinutes > MAX_DURATION_MINUTES) {
    problems.push({ field: 'body.schedule.durationMinutes', message: `durationMinutes must be an integer from 1 to ${MAX_DURATION_MINUTES} (7 days)` });
  }
  const zoneSent = spec.timeZone ?? defaultTimeZone;
  const timeZone = zoneSent === undefined ? undefined : timeZoneName(zoneSent);
  if (zoneSent === undefined) problems.push({ field: 'body.schedule.timeZone', message: 'timeZone is required: no time zone is known for the place the matchers name' });
  else if (timeZone === undefined) problems.push({ field: 'body.schedule.timeZone', message: `timeZone "${zoneSent}" is not an IANA time zone this runtime knows (e.g. Europe/Berlin)` });

  const startsAt = bounds.startsAt === undefined ? undefined : Date.parse(bounds.startsAt);
  const endsAt = bounds.endsAt === undefined ? undefined : Date.parse(bounds.endsAt);
  if (Number.isNaN(startsAt)) problems.push({ field: 'body.startsAt', message: 'startsAt must be an ISO 8601 date-time' });
  else if (startsAt !== undefined && startsAt >= LATEST_STARTS_AT) problems.push({ field: 'body.startsAt', message: 'startsAt must be before 9999-01-01: later openings are no ISO 8601 date-time' });
  if (Number.isNaN(endsAt)) problems.push({ field: 'body.endsAt', message: 'endsAt must be an ISO 8601 date-time' });
  else if (startsAt !== undefined && endsAt !== undefined && endsAt <= startsAt) problems.push({ field: 'body.endsAt', message: 'endsAt must be after startsAt' });
  if (rule && rule.interval > 1 && startsAt === undefined) {
    problems.push({ field: 'body.startsAt', message: `startsAt is required with INTERVAL=${rule.interval}: the ${rule.freq === 'WEEKLY' ? 'weeks' : 'days'} are counted from it` });
  }
  if (problems.length || !rule || !timeZone) return { problems };

  const schedule: Schedule = { rule, durationMinutes: spec.durationMinutes, timeZone, ...(startsAt === undefined ? {} : { startsAt }), ...(endsAt === undefined ? {} : { endsAt }) };
  const gap = shortestGap(rule, anchorDay(schedule));
  const field = spec.rrule === undefined ? 'body.schedule.days' : 'body.schedule.rrule';
  if (gap === undefined) return { problems: [{ field, message: 'the schedule never opens (no day of BYDAY falls on a day INTERVAL reaches)' }] };
  if (spec.durationMinutes >= gap) {
    return { problems: [{ field: 'body.schedule.durationMinutes', message: `durationMinutes (${spec.durationMinutes}) must be shorter than the ${gap} minutes between two openings of the schedule` }] };
  }
  return { schedule };
};
