/**
 * The recurrence of a maintenance window
 * (docs/guide/rules/maintenance.md "The RRULE subset of maintenance windows"): the weekly form (days and a start
 * time) and an RFC 5545 RRULE of a documented subset, both compiled to one `Rule`.
 *
 * The subset: `FREQ=DAILY|WEEKLY` (required); `INTERVAL=1..52`; `BYDAY` a list of `MO..SU`
 * without ordinals (required with WEEKLY; with DAILY it keeps only those days); `BYHOUR` a list
 * of 0..23 (required: there is no DTSTART to take the hour from); `BYMINUTE` a list of 0..59
 * (default 0); `WKST` (default MO; counts the weeks of `INTERVAL`); `UNTIL` as a date `YYYYMMDD`
 * (the last local day an opening may start) or a UTC date-time `YYYYMMDDTHHMMSSZ` (the last
 * instant one may start), both inclusive as in RFC 5545. Every other part (COUNT, BYMONTH,
 * BYMONTHDAY, BYSETPOS, BYSECOND, ...) and every other FREQ is refused by name. Names and values
 * are case-insensitive; an `RRULE:` prefix and empty parts (`;;`, a trailing `;`) are allowed.
 */

export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const MAX_INTERVAL = 52;

/** What a schedule repeats: on which local days, at which local times. */
export interface Rule {
  freq: 'DAILY' | 'WEEKLY';
  interval: number;
  /** The days it may open on; empty: every day (DAILY without BYDAY). */
  byDay: Weekday[];
  /** Local start times, in minutes after midnight, ascending and distinct. */
  times: number[];
  weekStart: Weekday;
  /** The last local day (day number), or the last instant (epoch ms), an opening may start. */
  until?: { day: number } | { instant: number };
}

export interface Problem {
  field: string;
  message: string;
}

const FIELD = 'body.schedule.rrule';
const SUPPORTED = ['FREQ', 'INTERVAL', 'BYDAY', 'BYHOUR', 'BYMINUTE', 'WKST', 'UNTIL'];
const RFC_PARTS = ['COUNT', 'BYSECOND', 'BYMONTH', 'BYMONTHDAY', 'BYYEARDAY', 'BYWEEKNO', 'BYSETPOS'];

const isWeekday = (value: string): value is Weekday => (WEEKDAYS as readonly string[]).includes(value);

/** Distinct integers of `min..max` from a comma list, ascending; undefined when one is not. */
const integers = (text: string, min: number, max: number): number[] | undefined => {
  const values = text.split(',').map((item) => (/^\d{1,2}$/.test(item) ? Number(item) : NaN));
  if (values.some((value) => !(value >= min && value <= max))) return undefined;
  return [...new Set(values)].sort((a, b) => a - b);
};

/** The local times of every BYHOUR with every BYMINUTE, ascending. */
const timesOf = (hours: readonly number[], minutes: readonly number[]): number[] =>
  hours.flatMap((hour) => minutes.map((minute) => hour * 60 + minute)).sort((a, b) => a - b);

const parseUntil = (text: string): Rule['until'] | undefined => {
  const match = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z)?$/.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => (part === undefined ? undefined : Number(part)));
  const ms = Date.UTC(year!, month! - 1, day!, hour ?? 0, minute ?? 0, second ?? 0);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month! - 1 || back.getUTCDate() !== day || (hour ?? 0) > 23 || (minute ?? 0) > 59 || (second ?? 0) > 59) return undefined;
  return hour === undefined ? { day: ms / 86_400_000 } : { instant: ms };
};

/** An RRULE of the subset as a Rule, or the problems, each naming `body.schedule.rrule`. */
export const parseRrule = (text: string): Rule | { problems: Problem[] } => {
  const problems: Problem[] = [];
  const fail = (message: string) => problems.push({ field: FIELD, message: `rrule: ${message}` });
  const parts = new Map<string, string>();
  const body = text.trim().replace(/^RRULE:/i, '');
  for (const part of body.split(';').filter((part) => part.trim() !== '')) {
    const [name = '', value, ...rest] = part.split('=');
    const key = name.trim().toUpperCase();
    if (value === undefined || rest.length > 0 || key === '' || value.trim() === '') fail(`"${part}" is not NAME=VALUE`);
    else if (parts.has(key)) fail(`${key} is given twice`);
    else if (RFC_PARTS.includes(key)) fail(`${key} is outside the supported subset (FREQ, INTERVAL, BYDAY, BYHOUR, BYMINUTE, WKST, UNTIL)${key === 'COUNT' ? '; bound the window with endsAt or UNTIL' : ''}`);
    else if (!SUPPORTED.includes(key)) fail(`${key} is not a part of an RRULE this API supports (FREQ, INTERVAL, BYDAY, BYHOUR, BYMINUTE, WKST, UNTIL)`);
    else parts.set(key, value.trim().toUpperCase());
  }
  if (problems.length) return { problems };

  const freq = parts.get('FREQ');
  if (freq === undefined) fail('FREQ is required (DAILY or WEEKLY)');
  else if (freq !== 'DAILY' && freq !== 'WEEKLY') fail(`FREQ=${freq} is outside the supported subset: DAILY or WEEKLY`);

  const intervalText = parts.get('INTERVAL') ?? '1';
  const interval = /^\d{1,2}$/.test(intervalText) ? Number(intervalText) : NaN;
  if (!(interval >= 1 && interval <= MAX_INTERVAL)) fail(`INTERVAL must be an integer from 1 to ${MAX_INTERVAL}`);

  const byDayText = parts.get('BYDAY');
  const byDay = byDayText === undefined ? [] : [...new Set(byDayText.split(','))];
  const ordinal = byDay.find((day) => /^[+-]?\d+[A-Z]{2}$/.test(day));
  if (ordinal) fail(`BYDAY=${ordinal}: days with an ordinal (1MO, -1FR) are outside the supported subset`);
  else if (!byDay.every(isWeekday)) fail('BYDAY must list days of MO, TU, WE, TH, FR, SA, SU');
  else if (freq === 'WEEKLY' && byDay.length === 0) fail('BYDAY is required with FREQ=WEEKLY (there is no DTSTART to take the day from)');

  const hoursText = parts.get('BYHOUR');
  const hours = hoursText === undefined ? undefined : integers(hoursText, 0, 23);
  if (hoursText === undefined) fail('BYHOUR is required (there is no DTSTART to take the hour from)');
  else if (!hours) fail('BYHOUR must list hours from 0 to 23');
  const minutes = integers(parts.get('BYMINUTE') ?? '0', 0, 59);
  if (!minutes) fail('BYMINUTE must list minutes from 0 to 59');

  const weekStart = parts.get('WKST') ?? 'MO';
  if (!isWeekday(weekStart)) fail('WKST must be one of MO, TU, WE, TH, FR, SA, SU');

  const untilText = parts.get('UNTIL');
  const until = untilText === undefined ? undefined : parseUntil(untilText);
  if (untilText !== undefined && !until) fail('UNTIL must be a date YYYYMMDD or a UTC date-time YYYYMMDDTHHMMSSZ');

  if (problems.length) return { problems };
  return {
    freq: freq as Rule['freq'],
    interval,
    byDay: WEEKDAYS.filter((day) => byDay.includes(day)),
    times: timesOf(hours!, minutes!),
    weekStart: weekStart as Weekday,
    ...(until ? { until } : {}),
  };
};

/** The weekly form as a Rule: on `days`, at `start` (`HH:MM`, checked by the contract). */
export const weeklyRule = (days: readonly Weekday[], start: string): Rule => {
  const [hour = 0, minute = 0] = start.split(':').map(Number);
  return { freq: 'WEEKLY', interval: 1, byDay: WEEKDAYS.filter((day) => days.includes(day)), times: [hour * 60 + minute], weekStart: 'MO' };
};
