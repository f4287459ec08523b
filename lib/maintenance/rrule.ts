/**
 * The recurrence of a maintenance window (issue 28 item 1;
 * docs/adr/0402-the-rrule-subset-of-maintenance-windows.md): the weekly form (days and a start
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

import { said, Text, type Say } from './problemTexts';

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
export const timesOf = (hours: readonly number[], minutes: readonly number[]): number[] =>
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
export const parseRrule = (text: string): Rule | { problems: Problem[] } => ruleOf(text, said);

/** parseRrule, the problems' texts told by `say` (problemTexts.ts). */
export const ruleOf = (text: string, say: Say): Rule | { problems: Problem[] } => {
  const problems: Problem[] = [];
  const fail = (message: string) => problems.push({ field: FIELD, message: `rrule: ${message}` });
  const parts = new Map<string, string>();
  const body = text.trim().replace(/^RRULE:/i, '');
  for (const part of body.split(';').filter((part) => part.trim() !== '')) {
    const [name = '', value, ...rest] = part.split('=');
    const key = name.trim().toUpperCase();
    if (value === undefined || rest.length > 0 || key === '' || value.trim() === '') fail(say(Text.NotNameValue, part));
    else if (parts.has(key)) fail(say(Text.GivenTwice, key));
    else if (RFC_PARTS.includes(key)) fail(say(Text.OutsideSubset, key));
    else if (!SUPPORTED.includes(key)) fail(say(Text.NotSupported, key));
    else parts.set(key, value.trim().toUpperCase());
  }
  if (problems.length) return { problems };

  const freq = parts.get('FREQ');
  if (freq === undefined) fail(say(Text.FreqRequired));
  else if (freq !== 'DAILY' && freq !== 'WEEKLY') fail(say(Text.FreqOutside, freq));

  const intervalText = parts.get('INTERVAL') ?? '1';
  const interval = /^\d{1,2}$/.test(intervalText) ? Number(intervalText) : NaN;
  if (!(interval >= 1 && interval <= MAX_INTERVAL)) fail(say(Text.Interval, MAX_INTERVAL));

  const byDayText = parts.get('BYDAY');
  const byDay = byDayText === undefined ? [] : [...new Set(byDayText.split(','))];
  const ordinal = byDay.find((day) => /^[+-]?\d+[A-Z]{2}$/.test(day));
  if (ordinal) fail(say(Text.Ordinal, ordinal));
  else if (!byDay.every(isWeekday)) fail(say(Text.ByDay));
  else if (freq === 'WEEKLY' && byDay.length === 0) fail(say(Text.ByDayRequired));

  const hoursText = parts.get('BYHOUR');
  const hours = hoursText === undefined ? undefined : integers(hoursText, 0, 23);
  if (hoursText === undefined) fail(say(Text.ByHourRequired));
  else if (!hours) fail(say(Text.ByHour));
  const minutes = integers(parts.get('BYMINUTE') ?? '0', 0, 59);
  if (!minutes) fail(say(Text.ByMinute));

  const weekStart = parts.get('WKST') ?? 'MO';
  if (!isWeekday(weekStart)) fail(say(Text.WeekStart));

  const untilText = parts.get('UNTIL');
  const until = untilText === undefined ? undefined : parseUntil(untilText);
  if (untilText !== undefined && !until) fail(say(Text.Until));

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
