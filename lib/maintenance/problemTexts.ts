/**
 * The texts of the problems a schedule as sent can have (rrule.ts `parseRrule`, schedule.ts
 * `compileSchedule`), apart from the checks: the functions that only evaluate stored windows
 * check them with `unsaid` (schedule.ts `buildSchedule`) and do not bundle these texts.
 */
const SUBSET = 'FREQ, INTERVAL, BYDAY, BYHOUR, BYMINUTE, WKST, UNTIL';

const PROBLEM_TEXTS = {
  notNameValue: (part: string) => `"${part}" is not NAME=VALUE`,
  givenTwice: (key: string) => `${key} is given twice`,
  outsideSubset: (key: string) => `${key} is outside the supported subset (${SUBSET})${key === 'COUNT' ? '; bound the window with endsAt or UNTIL' : ''}`,
  notSupported: (key: string) => `${key} is not a part of an RRULE this API supports (${SUBSET})`,
  freqRequired: () => 'FREQ is required (DAILY or WEEKLY)',
  freqOutside: (freq: string) => `FREQ=${freq} is outside the supported subset: DAILY or WEEKLY`,
  interval: (max: number) => `INTERVAL must be an integer from 1 to ${max}`,
  ordinal: (day: string) => `BYDAY=${day}: days with an ordinal (1MO, -1FR) are outside the supported subset`,
  byDay: () => 'BYDAY must list days of MO, TU, WE, TH, FR, SA, SU',
  byDayRequired: () => 'BYDAY is required with FREQ=WEEKLY (there is no DTSTART to take the day from)',
  byHourRequired: () => 'BYHOUR is required (there is no DTSTART to take the hour from)',
  byHour: () => 'BYHOUR must list hours from 0 to 23',
  byMinute: () => 'BYMINUTE must list minutes from 0 to 59',
  weekStart: () => 'WKST must be one of MO, TU, WE, TH, FR, SA, SU',
  until: () => 'UNTIL must be a date YYYYMMDD or a UTC date-time YYYYMMDDTHHMMSSZ',
  bothForms: () => 'schedule takes either days and start (weekly) or rrule, not both',
  noForm: () => 'schedule needs days and start (weekly), or rrule',
  duration: (max: number) => `durationMinutes must be an integer from 1 to ${max} (7 days)`,
  zoneRequired: () => 'timeZone is required: no time zone is known for the place the matchers name',
  zoneUnknown: (zone: string) => `timeZone "${zone}" is not an IANA time zone this runtime knows (e.g. Europe/Berlin)`,
  startsAt: () => 'startsAt must be an ISO 8601 date-time',
  startsAtLate: () => 'startsAt must be before 9999-01-01: later openings are no ISO 8601 date-time',
  endsAt: () => 'endsAt must be an ISO 8601 date-time',
  endsAtOrder: () => 'endsAt must be after startsAt',
  startsAtRequired: (interval: number, unit: string) => `startsAt is required with INTERVAL=${interval}: the ${unit} are counted from it`,
  neverOpens: () => 'the schedule never opens (no day of BYDAY falls on a day INTERVAL reaches)',
  durationGap: (duration: number, gap: number) => `durationMinutes (${duration}) must be shorter than the ${gap} minutes between two openings of the schedule`,
};

type ProblemTexts = typeof PROBLEM_TEXTS;

/** The text of a problem, by its code and its details. */
export type Say = <C extends keyof ProblemTexts>(code: C, ...details: Parameters<ProblemTexts[C]>) => string;

export const said: Say = (code, ...details) => (PROBLEM_TEXTS[code] as (...values: unknown[]) => string)(...details);
