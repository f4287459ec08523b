/**
 * The periods of a report schedule (docs/guide/rules/reports.md "A report's period ends at its wall-clock time in its zone, and only the last ended period is made"): a
 * period ends at each occurrence of the schedule's wall-clock time (every day, or every week on
 * its weekday) in its zone, and starts at the occurrence before. Across a DST change a weekly
 * period is 167 or 169 hours long and a daily one 23 or 25: the zone's clock decides, never a
 * fixed length. A local time the clock skips is taken at the transition, one it shows twice at
 * its first occurrence (lib/shared/zone.ts).
 */
import { WEEKDAYS } from '#lib/maintenance/pure/rrule';
import { DAY_MS, instantOf, MINUTE_MS, wallClockAt } from '#lib/shared/zone';
import type { ReportTiming } from '../types';

/** One period reported on: [from, to), epoch ms. */
export interface Period {
  from: number;
  to: number;
}

const mod = (n: number, m: number) => ((n % m) + m) % m;
/** 1970-01-01 was a Thursday (index 3 of MO..SU). */
const weekdayOf = (day: number) => mod(day + 3, 7);

const minutesOf = (time: string): number => {
  const [hours, minutes] = time.split(':').map(Number);
  return hours! * 60 + minutes!;
};

const stepDays = (timing: ReportTiming) => (timing.period === 'weekly' ? 7 : 1);

/** The local day (days since 1970-01-01 on the zone's calendar) of the last occurrence day on or before `day`. */
const occurrenceDayOnOrBefore = (timing: ReportTiming, day: number): number =>
  timing.period === 'weekly' ? day - mod(weekdayOf(day) - WEEKDAYS.indexOf(timing.weekday ?? 'MO'), 7) : day;

/** The instant the schedule's time falls on a local day. */
const occurrence = (timing: ReportTiming, day: number): number => instantOf(timing.timeZone, day * DAY_MS + minutesOf(timing.time) * MINUTE_MS);

/** The last period that ended at or before `now`. */
export const lastEndedPeriod = (timing: ReportTiming, now: number): Period => {
  const step = stepDays(timing);
  let day = occurrenceDayOnOrBefore(timing, Math.floor(wallClockAt(timing.timeZone, now) / DAY_MS));
  while (occurrence(timing, day) > now) day -= step;
  return { from: occurrence(timing, day - step), to: occurrence(timing, day) };
};

/** The period under way at `now`: it started at the last occurrence and ends at the next. */
export const currentPeriod = (timing: ReportTiming, now: number): Period => {
  const ended = lastEndedPeriod(timing, now);
  const step = stepDays(timing);
  const day = Math.floor(wallClockAt(timing.timeZone, ended.to) / DAY_MS);
  return { from: ended.to, to: occurrence(timing, day + step) };
};

/** When the next report of the schedule is due after `now`. */
export const nextReportAt = (timing: ReportTiming, now: number): number => currentPeriod(timing, now).to;
