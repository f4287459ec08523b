import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileSchedule,
  isOpenAt,
  nextClosing,
  nextOpening,
  openingAt,
  openingsBetween,
  statusAt,
  type Schedule,
  type ScheduleSpec,
  type Weekday,
} from '#lib/maintenance/pure/schedule';

const at = (text: string) => Date.parse(text);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const HOUR = 3_600_000;
const MINUTE = 60_000;

const compile = (spec: ScheduleSpec, bounds: { startsAt?: string; endsAt?: string } = {}, defaultZone?: string): Schedule => {
  const compiled = compileSchedule(spec, bounds, defaultZone);
  if ('problems' in compiled) throw new Error(compiled.problems.map((p) => `${p.field}: ${p.message}`).join('; '));
  return compiled.schedule;
};
const problemsOf = (spec: ScheduleSpec, bounds: { startsAt?: string; endsAt?: string } = {}, defaultZone?: string) => {
  const compiled = compileSchedule(spec, bounds, defaultZone);
  expect('problems' in compiled, 'should be refused').toBe(true);
  return 'problems' in compiled ? compiled.problems : [];
};
/** The opening under way at `when`, as ISO texts and its real length in hours. */
const opening = (schedule: Schedule, when: string) => {
  const found = openingAt(schedule, at(when));
  return found && { start: iso(found.start), end: iso(found.end), hours: (found.end - found.start) / HOUR };
};
const startsBetween = (schedule: Schedule, from: string, to: string) => openingsBetween(schedule, at(from), at(to)).map((o) => iso(o.start));

describe('a weekly window', () => {
  const tuesdayNights = compile({ days: ['TU'], start: '22:00', durationMinutes: 240, timeZone: 'Europe/Berlin' });

  it('is open from its local start (inclusive) to its end (exclusive), across midnight', () => {
    // Tuesday 2026-12-01 22:00 CET = 21:00Z, to Wednesday 02:00 CET = 01:00Z
    expect(isOpenAt(tuesdayNights, at('2026-12-01T20:59:59.999Z'))).toBe(false);
    expect(isOpenAt(tuesdayNights, at('2026-12-01T21:00:00Z'))).toBe(true);
    expect(isOpenAt(tuesdayNights, at('2026-12-02T00:59:59.999Z'))).toBe(true);
    expect(isOpenAt(tuesdayNights, at('2026-12-02T01:00:00Z'))).toBe(false);
    expect(opening(tuesdayNights, '2026-12-02T00:00:00Z')).toEqual({ start: '2026-12-01T21:00:00.000Z', end: '2026-12-02T01:00:00.000Z', hours: 4 });
  });

  it('reads the start on the zone wall clock, summer and winter', () => {
    expect(opening(tuesdayNights, '2026-07-07T21:00:00Z')).toMatchObject({ start: '2026-07-07T20:00:00.000Z' });
    expect(opening(tuesdayNights, '2026-01-06T22:00:00Z')).toMatchObject({ start: '2026-01-06T21:00:00.000Z' });
  });

  it('opens on each of its days and on no other', () => {
    const weekdays = compile({ days: ['MO', 'WE', 'FR'], start: '08:00', durationMinutes: 60, timeZone: 'UTC' });
    expect(startsBetween(weekdays, '2026-12-07T00:00:00Z', '2026-12-14T00:00:00Z')).toEqual([
      '2026-12-07T08:00:00.000Z',
      '2026-12-09T08:00:00.000Z',
      '2026-12-11T08:00:00.000Z',
    ]);
  });

  it('answers the next opening and closing after an instant', () => {
    const inside = at('2026-12-01T22:00:00Z');
    expect(iso(nextClosing(tuesdayNights, inside))).toBe('2026-12-02T01:00:00.000Z');
    expect(iso(nextOpening(tuesdayNights, inside)?.start)).toBe('2026-12-08T21:00:00.000Z');
    const before = at('2026-11-30T12:00:00Z');
    expect(iso(nextOpening(tuesdayNights, before)?.start)).toBe('2026-12-01T21:00:00.000Z');
    expect(iso(nextClosing(tuesdayNights, before))).toBe('2026-12-02T01:00:00.000Z');
    // at the very start, the next opening is the following one
    expect(iso(nextOpening(tuesdayNights, at('2026-12-01T21:00:00Z'))?.start)).toBe('2026-12-08T21:00:00.000Z');
  });

  it('lists the openings overlapping a range, one under way at its start included', () => {
    expect(openingsBetween(tuesdayNights, at('2026-12-02T00:00:00Z'), at('2026-12-16T00:00:00Z')).map((o) => [iso(o.start), iso(o.end)])).toEqual([
      ['2026-12-01T21:00:00.000Z', '2026-12-02T01:00:00.000Z'],
      ['2026-12-08T21:00:00.000Z', '2026-12-09T01:00:00.000Z'],
      ['2026-12-15T21:00:00.000Z', '2026-12-16T01:00:00.000Z'],
    ]);
    expect(openingsBetween(tuesdayNights, at('2026-12-02T01:00:00Z'), at('2026-12-08T21:00:00Z'))).toEqual([]);
    expect(openingsBetween(tuesdayNights, at('2026-12-10T00:00:00Z'), at('2026-12-09T00:00:00Z'))).toEqual([]);
  });

  it('lasts up to 7 days', () => {
    const week = compile({ days: ['MO'], start: '00:00', durationMinutes: 10_079, timeZone: 'UTC' });
    expect(opening(week, '2026-12-13T23:00:00Z')).toEqual({ start: '2026-12-07T00:00:00.000Z', end: '2026-12-13T23:59:00.000Z', hours: 10_079 / 60 });
  });
});

/*
 * Across a change of the clocks the window follows the wall clock (docs/guide/rules/maintenance.md "Maintenance windows follow the wall clock"): its start and
 * end are local times, so the real time between them is what the wall clock says. Berlin springs
 * forward 02:00 -> 03:00 on 2026-03-29 and falls back 03:00 -> 02:00 on 2026-10-25 (both at
 * 01:00Z); New York springs 02:00 -> 03:00 on 2026-03-08 (07:00Z) and falls 02:00 -> 01:00 on
 * 2026-11-01 (06:00Z).
 */
describe('a window across a change of the clocks', () => {
  const saturdayNight = (timeZone: string, start: string, durationMinutes: number) => compile({ days: ['SA'], start, durationMinutes, timeZone });

  it.each([
    ['Europe/Berlin', 'spring forward', '2026-03-28T23:00:00Z', '2026-03-28T22:00:00.000Z', '2026-03-29T01:00:00.000Z', 3],
    ['Europe/Berlin', 'fall back', '2026-10-24T23:00:00Z', '2026-10-24T21:00:00.000Z', '2026-10-25T02:00:00.000Z', 5],
    ['America/New_York', 'spring forward', '2026-03-08T05:00:00Z', '2026-03-08T04:00:00.000Z', '2026-03-08T07:00:00.000Z', 3],
    ['America/New_York', 'fall back', '2026-11-01T05:00:00Z', '2026-11-01T03:00:00.000Z', '2026-11-01T08:00:00.000Z', 5],
  ])('%s, %s: 23:00-03:00 lasts what the wall clock says', (zone, _change, inside, start, end, hours) => {
    const window = saturdayNight(zone, '23:00', 240);
    expect(opening(window, inside)).toEqual({ start, end, hours });
    // the week before and after: 4 hours
    expect(opening(window, new Date(at(inside) - 7 * 24 * HOUR).toISOString())?.hours).toBe(4);
    expect(opening(window, new Date(at(inside) + 7 * 24 * HOUR).toISOString())?.hours).toBe(4);
  });

  it.each([
    ['Europe/Berlin', '2026-03-29T00:00:00Z', 5],
    ['Europe/Berlin', '2026-10-25T00:00:00Z', 7],
    ['America/New_York', '2026-03-08T05:00:00Z', 5],
    ['America/New_York', '2026-11-01T05:00:00Z', 7],
  ])('%s: 22:00-04:00 holding %s lasts %s hours', (zone, inside, hours) => {
    expect(opening(saturdayNight(zone, '22:00', 360), inside)?.hours).toBe(hours);
  });

  it('ends a 22:00-02:00 window at the first instant after the gap when 02:00 is skipped', () => {
    expect(opening(saturdayNight('Europe/Berlin', '22:00', 240), '2026-03-28T23:00:00Z')).toEqual({ start: '2026-03-28T21:00:00.000Z', end: '2026-03-29T01:00:00.000Z', hours: 4 });
    expect(opening(saturdayNight('America/New_York', '22:00', 240), '2026-03-08T05:00:00Z')).toEqual({ start: '2026-03-08T03:00:00.000Z', end: '2026-03-08T07:00:00.000Z', hours: 4 });
  });

  it('ends a window at the first of two local times the clock shows twice', () => {
    // Berlin shows 02:00 twice (CEST, then CET): the window ends at the first
    expect(opening(saturdayNight('Europe/Berlin', '22:00', 240), '2026-10-24T23:00:00Z')).toEqual({ start: '2026-10-24T20:00:00.000Z', end: '2026-10-25T00:00:00.000Z', hours: 4 });
    // New York shows 01:30 twice (EDT, then EST)
    expect(opening(saturdayNight('America/New_York', '22:00', 210), '2026-11-01T03:00:00Z')).toEqual({ start: '2026-11-01T02:00:00.000Z', end: '2026-11-01T05:30:00.000Z', hours: 3.5 });
  });

  it('starts a window whose start the clock skips at the first instant after the gap', () => {
    const daily = compile({ rrule: 'FREQ=DAILY;BYHOUR=2;BYMINUTE=30', durationMinutes: 60, timeZone: 'Europe/Berlin' });
    expect(opening(daily, '2026-03-29T01:15:00Z')).toEqual({ start: '2026-03-29T01:00:00.000Z', end: '2026-03-29T01:30:00.000Z', hours: 0.5 });
    const newYork = compile({ rrule: 'FREQ=DAILY;BYHOUR=2;BYMINUTE=30', durationMinutes: 60, timeZone: 'America/New_York' });
    expect(opening(newYork, '2026-03-08T07:15:00Z')).toEqual({ start: '2026-03-08T07:00:00.000Z', end: '2026-03-08T07:30:00.000Z', hours: 0.5 });
  });

  it('starts a window whose start the clock shows twice at its first occurrence', () => {
    const daily = compile({ rrule: 'FREQ=DAILY;BYHOUR=2;BYMINUTE=30', durationMinutes: 60, timeZone: 'Europe/Berlin' });
    // 02:30 CEST = 00:30Z, to 03:30 CET = 02:30Z: two hours of real time
    expect(opening(daily, '2026-10-25T01:00:00Z')).toEqual({ start: '2026-10-25T00:30:00.000Z', end: '2026-10-25T02:30:00.000Z', hours: 2 });
    const newYork = compile({ rrule: 'FREQ=DAILY;BYHOUR=1;BYMINUTE=30', durationMinutes: 60, timeZone: 'America/New_York' });
    expect(opening(newYork, '2026-11-01T06:00:00Z')).toEqual({ start: '2026-11-01T05:30:00.000Z', end: '2026-11-01T07:30:00.000Z', hours: 2 });
  });

  it('does not open on the night the gap swallows a window whole', () => {
    const daily = compile({ rrule: 'FREQ=DAILY;BYHOUR=2;BYMINUTE=10', durationMinutes: 30, timeZone: 'Europe/Berlin' });
    expect(startsBetween(daily, '2026-03-28T00:00:00Z', '2026-03-31T00:00:00Z')).toEqual(['2026-03-28T01:10:00.000Z', '2026-03-30T00:10:00.000Z']);
    expect(isOpenAt(daily, at('2026-03-29T01:00:00Z'))).toBe(false);
    expect(iso(nextOpening(daily, at('2026-03-28T02:00:00Z'))?.start)).toBe('2026-03-30T00:10:00.000Z');
  });

  it('makes one opening of two the clock change makes touch', () => {
    // 01:00-02:30 ends in the gap, at 03:00 CEST = 01:00Z, where 03:00-04:30 starts
    const twice = compile({ rrule: 'FREQ=DAILY;BYHOUR=1,3', durationMinutes: 90, timeZone: 'Europe/Berlin' });
    const whole = { start: '2026-03-29T00:00:00.000Z', end: '2026-03-29T02:30:00.000Z', hours: 2.5 };
    expect(opening(twice, '2026-03-29T00:30:00Z')).toEqual(whole);
    expect(opening(twice, '2026-03-29T01:00:00Z')).toEqual(whole);
    expect(iso(nextClosing(twice, at('2026-03-29T00:30:00Z')))).toBe(whole.end);
    expect(startsBetween(twice, '2026-03-29T00:00:00Z', '2026-03-29T03:00:00Z')).toEqual([whole.start]);
    // on other days they stay two
    expect(startsBetween(twice, '2026-03-30T00:00:00Z', '2026-03-30T03:00:00Z')).toEqual(['2026-03-29T23:00:00.000Z', '2026-03-30T01:00:00.000Z']);
  });

  it('reaches back to where a joined opening began, however long before the instant asked', () => {
    // weekly on Sunday 02:30 for a week less a minute: the opening of 1 March ends at 02:29 on
    // 8 March, which the clock skips, at the instant the next one starts (03:00 EDT)
    const weekly = compile({ days: ['SU'], start: '02:30', durationMinutes: 10_079, timeZone: 'America/New_York' });
    expect(opening(weekly, '2026-03-14T12:00:00Z')).toMatchObject({ start: '2026-03-01T07:30:00.000Z', end: '2026-03-15T06:29:00.000Z' });
    expect(opening(weekly, '2026-03-03T12:00:00Z')).toMatchObject({ start: '2026-03-01T07:30:00.000Z', end: '2026-03-15T06:29:00.000Z' });
  });
});

describe('an RRULE window', () => {
  it('counts INTERVAL weeks from the week of startsAt, WKST starting the week (RFC 5545 example)', () => {
    const bounds = { startsAt: '1997-08-05T09:00:00Z' };
    const monday = compile({ rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;BYHOUR=9;WKST=MO', durationMinutes: 60, timeZone: 'UTC' }, bounds);
    const sunday = compile({ rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;BYHOUR=9;WKST=SU', durationMinutes: 60, timeZone: 'UTC' }, bounds);
    expect(startsBetween(monday, '1997-08-01T00:00:00Z', '1997-08-25T00:00:00Z').map((s) => s?.slice(0, 10))).toEqual(['1997-08-05', '1997-08-10', '1997-08-19', '1997-08-24']);
    expect(startsBetween(sunday, '1997-08-01T00:00:00Z', '1997-09-01T00:00:00Z').map((s) => s?.slice(0, 10))).toEqual(['1997-08-05', '1997-08-17', '1997-08-19', '1997-08-31']);
  });

  it('skips the openings of the first week that come before startsAt', () => {
    const fortnightly = compile({ rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;BYHOUR=22', durationMinutes: 120, timeZone: 'UTC' }, { startsAt: '2026-12-02T00:00:00Z' });
    expect(iso(nextOpening(fortnightly, at('2026-11-01T00:00:00Z'))?.start)).toBe('2026-12-15T22:00:00.000Z');
    expect(startsBetween(fortnightly, '2026-12-01T00:00:00Z', '2027-01-13T00:00:00Z')).toEqual(['2026-12-15T22:00:00.000Z', '2026-12-29T22:00:00.000Z', '2027-01-12T22:00:00.000Z']);
  });

  it('counts INTERVAL days from the local day of startsAt', () => {
    const everyThird = compile({ rrule: 'FREQ=DAILY;INTERVAL=3;BYHOUR=1', durationMinutes: 30, timeZone: 'Europe/Berlin' }, { startsAt: '2026-11-30T23:30:00Z' });
    // startsAt is 1 December 00:30 in Berlin: day 0 is 1 December, whose 01:00 is after it
    expect(startsBetween(everyThird, '2026-11-28T00:00:00Z', '2026-12-08T00:00:00Z')).toEqual(['2026-12-01T00:00:00.000Z', '2026-12-04T00:00:00.000Z', '2026-12-07T00:00:00.000Z']);
  });

  it('keeps with DAILY only the days of BYDAY, and opens at every BYHOUR with every BYMINUTE', () => {
    const workdays = compile({ rrule: 'FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9,17;BYMINUTE=0,30', durationMinutes: 15, timeZone: 'UTC' });
    const starts = startsBetween(workdays, '2026-12-04T00:00:00Z', '2026-12-08T00:00:00Z');
    expect(starts).toEqual([
      '2026-12-04T09:00:00.000Z',
      '2026-12-04T09:30:00.000Z',
      '2026-12-04T17:00:00.000Z',
      '2026-12-04T17:30:00.000Z',
      '2026-12-07T09:00:00.000Z',
      '2026-12-07T09:30:00.000Z',
      '2026-12-07T17:00:00.000Z',
      '2026-12-07T17:30:00.000Z',
    ]);
  });

  it('lets an opening start on the UNTIL day (a date), or at the UNTIL instant, and none after', () => {
    const byDate = compile({ rrule: 'FREQ=DAILY;BYHOUR=23;UNTIL=20261202', durationMinutes: 120, timeZone: 'Europe/Berlin' });
    expect(startsBetween(byDate, '2026-12-01T00:00:00Z', '2026-12-10T00:00:00Z')).toEqual(['2026-12-01T22:00:00.000Z', '2026-12-02T22:00:00.000Z']);
    expect(isOpenAt(byDate, at('2026-12-02T23:30:00Z'))).toBe(true);
    expect(nextOpening(byDate, at('2026-12-03T00:00:00Z'))).toBeUndefined();
    const byInstant = compile({ rrule: 'FREQ=DAILY;BYHOUR=23;UNTIL=20261202T220000Z', durationMinutes: 120, timeZone: 'Europe/Berlin' });
    expect(startsBetween(byInstant, '2026-12-01T00:00:00Z', '2026-12-10T00:00:00Z')).toEqual(['2026-12-01T22:00:00.000Z', '2026-12-02T22:00:00.000Z']);
  });
});

describe('startsAt and endsAt', () => {
  const nightly = (bounds: { startsAt?: string; endsAt?: string }) => compile({ rrule: 'FREQ=DAILY;BYHOUR=22', durationMinutes: 240, timeZone: 'UTC' }, bounds);

  it('keeps the openings that start at or after startsAt; one already under way then is not joined', () => {
    const from = nightly({ startsAt: '2026-12-01T23:00:00Z' });
    expect(isOpenAt(from, at('2026-12-01T23:30:00Z'))).toBe(false);
    expect(iso(nextOpening(from, at('2026-11-01T00:00:00Z'))?.start)).toBe('2026-12-02T22:00:00.000Z');
    expect(startsBetween(nightly({ startsAt: '2026-12-01T22:00:00Z' }), '2026-12-01T00:00:00Z', '2026-12-02T00:00:00Z')).toEqual(['2026-12-01T22:00:00.000Z']);
  });

  it('keeps the openings that start before endsAt, the last one running its whole length', () => {
    const until = nightly({ endsAt: '2026-12-02T22:00:00Z' });
    expect(opening(until, '2026-12-02T01:00:00Z')).toEqual({ start: '2026-12-01T22:00:00.000Z', end: '2026-12-02T02:00:00.000Z', hours: 4 });
    expect(isOpenAt(until, at('2026-12-02T22:30:00Z'))).toBe(false);
    expect(nextOpening(until, at('2026-12-02T01:00:00Z'))).toBeUndefined();
    expect(iso(nextClosing(until, at('2026-12-02T01:00:00Z')))).toBe('2026-12-02T02:00:00.000Z');
  });

  it('finds the first opening of a window that starts far ahead', () => {
    const later = nightly({ startsAt: '2029-06-01T00:00:00Z' });
    expect(iso(nextOpening(later, at('2026-12-01T00:00:00Z'))?.start)).toBe('2029-06-01T22:00:00.000Z');
  });
});

describe('statusAt', () => {
  const window = compile({ days: ['TU'], start: '22:00', durationMinutes: 240, timeZone: 'UTC' }, { endsAt: '2026-12-09T00:00:00Z' });

  it('is active while open, with the closing of this opening and the start of the next', () => {
    expect(statusAt(window, at('2026-12-01T23:00:00Z'))).toEqual({ status: 'active', nextOpening: at('2026-12-08T22:00:00Z'), nextClosing: at('2026-12-02T02:00:00Z') });
  });

  it('is scheduled between openings, with the next opening and its closing', () => {
    expect(statusAt(window, at('2026-12-03T00:00:00Z'))).toEqual({ status: 'scheduled', nextOpening: at('2026-12-08T22:00:00Z'), nextClosing: at('2026-12-09T02:00:00Z') });
  });

  it('is active in its last opening with no next one, then ended', () => {
    expect(statusAt(window, at('2026-12-09T01:00:00Z'))).toEqual({ status: 'active', nextOpening: undefined, nextClosing: at('2026-12-09T02:00:00Z') });
    expect(statusAt(window, at('2026-12-09T02:00:00Z'))).toEqual({ status: 'ended', nextOpening: undefined, nextClosing: undefined });
  });
});

describe('compileSchedule refuses, naming the field', () => {
  const weekly = { days: ['TU'] as Weekday[], start: '22:00', durationMinutes: 60, timeZone: 'UTC' };
  const fields = (spec: ScheduleSpec, bounds: { startsAt?: string; endsAt?: string } = {}, zone?: string) => problemsOf(spec, bounds, zone).map((p) => p.field);

  it('both forms, or neither, or half the weekly one', () => {
    expect(fields({ ...weekly, rrule: 'FREQ=DAILY;BYHOUR=1' })).toEqual(['body.schedule']);
    expect(fields({ durationMinutes: 60, timeZone: 'UTC' })).toEqual(['body.schedule.days']);
    expect(fields({ days: ['TU'], durationMinutes: 60, timeZone: 'UTC' })).toEqual(['body.schedule.start']);
  });

  it('a duration of 0, over 7 days, or not whole minutes', () => {
    for (const durationMinutes of [0, -5, 10_081, 1.5]) expect(fields({ ...weekly, durationMinutes }), String(durationMinutes)).toEqual(['body.schedule.durationMinutes']);
  });

  it('a duration as long as the time between two openings', () => {
    const [problem] = problemsOf({ rrule: 'FREQ=DAILY;BYHOUR=22', durationMinutes: 1440, timeZone: 'UTC' });
    expect(problem).toEqual({ field: 'body.schedule.durationMinutes', message: 'durationMinutes (1440) must be shorter than the 1440 minutes between two openings of the schedule' });
    expect(fields({ rrule: 'FREQ=DAILY;BYHOUR=1,3', durationMinutes: 120, timeZone: 'UTC' })).toEqual(['body.schedule.durationMinutes']);
    expect(fields({ days: ['MO', 'TU'], start: '00:00', durationMinutes: 1441, timeZone: 'UTC' })).toEqual(['body.schedule.durationMinutes']);
    expect(compileSchedule({ rrule: 'FREQ=DAILY;BYHOUR=22', durationMinutes: 1439, timeZone: 'UTC' }, {})).toHaveProperty('schedule');
  });

  it('an unknown time zone, or none when the place has no default', () => {
    expect(problemsOf({ ...weekly, timeZone: 'Europe/Atlantis' })).toEqual([
      { field: 'body.schedule.timeZone', message: 'timeZone "Europe/Atlantis" is not an IANA time zone this runtime knows (e.g. Europe/Berlin)' },
    ]);
    expect(fields({ ...weekly, timeZone: '+01:00' })).toEqual(['body.schedule.timeZone']);
    expect(fields({ ...weekly, timeZone: undefined })).toEqual(['body.schedule.timeZone']);
    expect(fields({ ...weekly, timeZone: undefined }, {}, 'Nowhere/Special')).toEqual(['body.schedule.timeZone']);
  });

  it('takes the default zone only when the schedule names none', () => {
    expect(compile({ ...weekly, timeZone: undefined }, {}, 'europe/berlin').timeZone).toBe('Europe/Berlin');
    expect(compile(weekly, {}, 'Europe/Berlin').timeZone).toBe('UTC');
  });

  it('an RRULE outside the subset', () => {
    expect(problemsOf({ rrule: 'FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=1', durationMinutes: 60, timeZone: 'UTC' }).map((p) => p.field)).toEqual(['body.schedule.rrule']);
  });

  it('endsAt not after startsAt, and dates that are not dates', () => {
    expect(fields(weekly, { startsAt: '2026-12-02T00:00:00Z', endsAt: '2026-12-01T00:00:00Z' })).toEqual(['body.endsAt']);
    expect(fields(weekly, { startsAt: '2026-12-02T00:00:00Z', endsAt: '2026-12-02T00:00:00Z' })).toEqual(['body.endsAt']);
    expect(fields(weekly, { startsAt: 'soon' })).toEqual(['body.startsAt']);
    // the first opening would fall in year 10000: no date-time to answer it as
    expect(fields(weekly, { startsAt: '9999-12-31T00:00:00Z' })).toEqual(['body.startsAt']);
    expect(compileSchedule(weekly, { startsAt: '9998-12-31T00:00:00Z' })).toHaveProperty('schedule');
  });

  it('an INTERVAL above 1 without startsAt to count from', () => {
    expect(problemsOf({ rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;BYHOUR=1', durationMinutes: 60, timeZone: 'UTC' })).toEqual([
      { field: 'body.startsAt', message: 'startsAt is required with INTERVAL=2: the weeks are counted from it' },
    ]);
  });

  it('a rule that never opens', () => {
    // every 7th day from a Tuesday is a Tuesday: never a Monday
    expect(fields({ rrule: 'FREQ=DAILY;INTERVAL=7;BYDAY=MO;BYHOUR=1', durationMinutes: 60, timeZone: 'UTC' }, { startsAt: '2026-12-01T00:00:00Z' })).toEqual(['body.schedule.rrule']);
  });

  it('every problem at once', () => {
    expect(fields({ days: ['TU'], durationMinutes: 0, timeZone: 'Nope/Nope' }, { endsAt: 'later' })).toEqual([
      'body.schedule.start',
      'body.schedule.durationMinutes',
      'body.schedule.timeZone',
      'body.endsAt',
    ]);
  });
});

describe('any weekly window, in any zone, at any instant', () => {
  const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'America/Santiago', 'Asia/Kolkata', 'UTC'];
  const DAYS: Weekday[] = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
  const arbitrary = fc
    .record({
      days: fc.subarray(DAYS, { minLength: 1 }),
      hour: fc.integer({ min: 0, max: 23 }),
      minute: fc.integer({ min: 0, max: 59 }),
      share: fc.double({ min: 0.001, max: 0.999, noNaN: true }),
      timeZone: fc.constantFrom(...zones),
      instant: fc.integer({ min: at('2026-01-01T00:00:00Z'), max: at('2028-01-01T00:00:00Z') }),
    })
    .map(({ days, hour, minute, share, timeZone, instant }) => {
      const indexes = days.map((day) => DAYS.indexOf(day));
      const gaps = indexes.map((day, i) => ((indexes[(i + 1) % indexes.length]! - day + 7) % 7 || 7) * 1440);
      const durationMinutes = Math.max(1, Math.floor(Math.min(...gaps) * share));
      const start = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
      return { schedule: compile({ days, start, durationMinutes, timeZone }), durationMinutes, gaps, instant };
    });

  it('answers an opening under way that holds the instant, and closes when it ends', () => {
    fc.assert(
      fc.property(arbitrary, ({ schedule, instant }) => {
        const open = openingAt(schedule, instant);
        expect(isOpenAt(schedule, instant)).toBe(open !== undefined);
        if (open) {
          expect(open.start).toBeLessThanOrEqual(instant);
          expect(open.end).toBeGreaterThan(instant);
          expect(nextClosing(schedule, instant)).toBe(open.end);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('opens next after the instant, closed just before and open at that start', () => {
    fc.assert(
      fc.property(arbitrary, ({ schedule, instant }) => {
        const next = nextOpening(schedule, instant);
        expect(next).toBeDefined();
        expect(next!.start).toBeGreaterThan(instant);
        expect(isOpenAt(schedule, next!.start - 1)).toBe(false);
        expect(openingAt(schedule, next!.start)).toEqual(next);
      }),
      { numRuns: 300 },
    );
  });

  it('lists ordered openings that never touch, each as long as the wall clock says (within a clock change)', () => {
    // 2027-10-02, Australia/Lord_Howe springs forward 30 min at 02:00 the next day: SA/SU 02:02 for 1438 min joins two openings
    const joined = openingsBetween(compile({ days: ['SA', 'SU'], start: '02:02', durationMinutes: 1438, timeZone: 'Australia/Lord_Howe' }), at('2027-10-01T00:00:00Z'), at('2027-10-04T00:00:00Z'));
    expect(joined.map((o) => [iso(o.start), iso(o.end)])).toEqual([['2027-10-01T15:32:00.000Z', '2027-10-03T15:00:00.000Z']]);
    fc.assert(
      fc.property(arbitrary, ({ schedule, durationMinutes, gaps, instant }) => {
        const openings = openingsBetween(schedule, instant, instant + 15 * 24 * HOUR);
        expect(openings.length).toBeGreaterThan(0);
        const near = (length: number, minutes: number) => Math.abs(length - minutes * MINUTE) <= HOUR;
        openings.forEach((o, i) => {
          expect(o.end).toBeGreaterThan(o.start);
          // one opening, or two the clock change made touch, answered as one (docs/guide/rules/maintenance.md "Maintenance windows follow the wall clock")
          const length = o.end - o.start;
          expect(near(length, durationMinutes) || gaps.some((gap) => near(length, gap + durationMinutes))).toBe(true);
          if (i > 0) expect(o.start).toBeGreaterThan(openings[i - 1]!.end);
        });
      }),
      { numRuns: 200 },
    );
  });
});
