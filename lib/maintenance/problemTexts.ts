/**
 * The texts of the problems a schedule as sent can have (rrule.ts `parseRrule`, schedule.ts
 * `compileSchedule`), apart from the checks: the functions that only evaluate stored windows
 * check them with `unsaid` (schedule.ts `buildSchedule`) and do not bundle these texts.
 */

/** The problems a schedule as sent can have, by code (inlined in the bundles: the codes carry no names). */
export const enum Text {
  NotNameValue,
  GivenTwice,
  OutsideSubset,
  NotSupported,
  FreqRequired,
  FreqOutside,
  Interval,
  Ordinal,
  ByDay,
  ByDayRequired,
  ByHourRequired,
  ByHour,
  ByMinute,
  WeekStart,
  Until,
  BothForms,
  NoForm,
  Duration,
  ZoneRequired,
  ZoneUnknown,
  StartsAt,
  StartsAtLate,
  EndsAt,
  EndsAtOrder,
  StartsAtRequired,
  NeverOpens,
  DurationGap,
}

const SUBSET = 'FREQ, INTERVAL, BYDAY, BYHOUR, BYMINUTE, WKST, UNTIL';

const PROBLEM_TEXTS = {
  [Text.NotNameValue]: (part: string) => `"${part}" is not NAME=VALUE`,
  [Text.GivenTwice]: (key: string) => `${key} is given twice`,
  [Text.OutsideSubset]: (key: string) => `${key} is outside the supported subset (${SUBSET})${key === 'COUNT' ? '; bound the window with endsAt or UNTIL' : ''}`,
  [Text.NotSupported]: (key: string) => `${key} is not a part of an RRULE this API supports (${SUBSET})`,
  [Text.FreqRequired]: () => 'FREQ is required (DAILY or WEEKLY)',
  [Text.FreqOutside]: (freq: string) => `FREQ=${freq} is outside the supported subset: DAILY or WEEKLY`,
  [Text.Interval]: (max: number) => `INTERVAL must be an integer from 1 to ${max}`,
  [Text.Ordinal]: (day: string) => `BYDAY=${day}: days with an ordinal (1MO, -1FR) are outside the supported subset`,
  [Text.ByDay]: () => 'BYDAY must list days of MO, TU, WE, TH, FR, SA, SU',
  [Text.ByDayRequired]: () => 'BYDAY is required with FREQ=WEEKLY (there is no DTSTART to take the day from)',
  [Text.ByHourRequired]: () => 'BYHOUR is required (there is no DTSTART to take the hour from)',
  [Text.ByHour]: () => 'BYHOUR must list hours from 0 to 23',
  [Text.ByMinute]: () => 'BYMINUTE must list minutes from 0 to 59',
  [Text.WeekStart]: () => 'WKST must be one of MO, TU, WE, TH, FR, SA, SU',
  [Text.Until]: () => 'UNTIL must be a date YYYYMMDD or a UTC date-time YYYYMMDDTHHMMSSZ',
  [Text.BothForms]: () => 'schedule takes either days and start (weekly) or rrule, not both',
  [Text.NoForm]: () => 'schedule needs days and start (weekly), or rrule',
  [Text.Duration]: (max: number) => `durationMinutes must be an integer from 1 to ${max} (7 days)`,
  [Text.ZoneRequired]: () => 'timeZone is required: no time zone is known for the place the matchers name',
  [Text.ZoneUnknown]: (zone: string) => `timeZone "${zone}" is not an IANA time zone this runtime knows (e.g. Europe/Berlin)`,
  [Text.StartsAt]: () => 'startsAt must be an ISO 8601 date-time',
  [Text.StartsAtLate]: () => 'startsAt must be before 9999-01-01: later openings are no ISO 8601 date-time',
  [Text.EndsAt]: () => 'endsAt must be an ISO 8601 date-time',
  [Text.EndsAtOrder]: () => 'endsAt must be after startsAt',
  [Text.StartsAtRequired]: (interval: number, unit: string) => `startsAt is required with INTERVAL=${interval}: the ${unit} are counted from it`,
  [Text.NeverOpens]: () => 'the schedule never opens (no day of BYDAY falls on a day INTERVAL reaches)',
  [Text.DurationGap]: (duration: number, gap: number) => `durationMinutes (${duration}) must be shorter than the ${gap} minutes between two openings of the schedule`,
};

type ProblemTexts = typeof PROBLEM_TEXTS;

/** The text of a problem, by its code and its details. */
export type Say = <C extends Text>(code: C, ...details: Parameters<ProblemTexts[C]>) => string;

export const said: Say = (code, ...details) => (PROBLEM_TEXTS[code] as (...values: unknown[]) => string)(...details);
