import { describe, expect, it } from 'vitest';
import { parseRrule, weeklyRule, type Rule } from '#lib/maintenance/pure/rrule';

const parsed = (text: string): Rule => {
  const rule = parseRrule(text);
  if ('problems' in rule) throw new Error(rule.problems.map((p) => p.message).join('; '));
  return rule;
};
const problems = (text: string): string[] => {
  const rule = parseRrule(text);
  expect('problems' in rule, `${text} should be refused`).toBe(true);
  return 'problems' in rule ? rule.problems.map((p) => { expect(p.field).toBe('body.schedule.rrule'); return p.message; }) : [];
};

describe('parseRrule: the subset', () => {
  it('reads every supported part', () => {
    expect(parsed('FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;BYHOUR=22,9;BYMINUTE=30,0;WKST=SU;UNTIL=20271231T230000Z')).toEqual({
      freq: 'WEEKLY',
      interval: 2,
      byDay: ['TU', 'SU'],
      times: [9 * 60, 9 * 60 + 30, 22 * 60, 22 * 60 + 30],
      weekStart: 'SU',
      until: { instant: Date.parse('2027-12-31T23:00:00Z') },
    });
  });

  it('fills INTERVAL 1, BYMINUTE 0, WKST MO, no BYDAY (every day) for DAILY', () => {
    expect(parsed('FREQ=DAILY;BYHOUR=3')).toEqual({ freq: 'DAILY', interval: 1, byDay: [], times: [180], weekStart: 'MO' });
  });

  it('reads names and values in any case, an RRULE: prefix, days in week order without repeats', () => {
    expect(parsed('rrule:freq=weekly;byday=fr,mo,fr;byhour=7')).toMatchObject({ freq: 'WEEKLY', byDay: ['MO', 'FR'], times: [420] });
  });

  it('passes over empty parts (a trailing semicolon)', () => {
    expect(parsed('FREQ=DAILY;;BYHOUR=1;')).toMatchObject({ freq: 'DAILY', times: [60] });
  });

  it('reads UNTIL as a local date (the last day an opening may start)', () => {
    expect(parsed('FREQ=DAILY;BYHOUR=1;UNTIL=20270630').until).toEqual({ day: Date.parse('2027-06-30T00:00:00Z') / 86_400_000 });
  });

  it('keeps DAILY with BYDAY as a filter of days (weekdays only)', () => {
    expect(parsed('FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=18').byDay).toEqual(['MO', 'TU', 'WE', 'TH', 'FR']);
  });
});

describe('parseRrule: refused, each by name', () => {
  it.each([
    ['FREQ=MONTHLY;BYHOUR=1', 'FREQ=MONTHLY is outside the supported subset'],
    ['FREQ=HOURLY;BYHOUR=1', 'FREQ=HOURLY is outside the supported subset'],
    ['BYDAY=MO;BYHOUR=1', 'FREQ is required'],
    ['FREQ=DAILY;BYHOUR=1;COUNT=3', 'COUNT is outside the supported subset'],
    ['FREQ=DAILY;BYHOUR=1;BYMONTH=1', 'BYMONTH is outside the supported subset'],
    ['FREQ=DAILY;BYHOUR=1;BYMONTHDAY=1', 'BYMONTHDAY is outside the supported subset'],
    ['FREQ=DAILY;BYHOUR=1;BYSETPOS=1', 'BYSETPOS is outside the supported subset'],
    ['FREQ=DAILY;BYHOUR=1;BYSECOND=1', 'BYSECOND is outside the supported subset'],
    ['FREQ=DAILY;BYHOUR=1;COLOR=red', 'COLOR is not a part of an RRULE this API supports'],
    ['FREQ=DAILY;FREQ=WEEKLY;BYHOUR=1', 'FREQ is given twice'],
    ['FREQ=DAILY;BYHOUR', '"BYHOUR" is not NAME=VALUE'],
    ['FREQ=DAILY;BYHOUR=', '"BYHOUR=" is not NAME=VALUE'],
    ['FREQ=DAILY;INTERVAL=0;BYHOUR=1', 'INTERVAL must be an integer from 1 to 52'],
    ['FREQ=DAILY;INTERVAL=53;BYHOUR=1', 'INTERVAL must be an integer from 1 to 52'],
    ['FREQ=DAILY;INTERVAL=two;BYHOUR=1', 'INTERVAL must be an integer from 1 to 52'],
    ['FREQ=WEEKLY;BYDAY=1MO;BYHOUR=1', 'BYDAY=1MO: days with an ordinal (1MO, -1FR) are outside the supported subset'],
    ['FREQ=WEEKLY;BYDAY=-1FR;BYHOUR=1', 'BYDAY=-1FR: days with an ordinal'],
    ['FREQ=WEEKLY;BYDAY=XX;BYHOUR=1', 'BYDAY must list days of MO, TU, WE, TH, FR, SA, SU'],
    ['FREQ=WEEKLY;BYHOUR=1', 'BYDAY is required with FREQ=WEEKLY'],
    ['FREQ=DAILY', 'BYHOUR is required'],
    ['FREQ=DAILY;BYHOUR=24', 'BYHOUR must list hours from 0 to 23'],
    ['FREQ=DAILY;BYHOUR=1,,2', 'BYHOUR must list hours from 0 to 23'],
    ['FREQ=DAILY;BYHOUR=1;BYMINUTE=60', 'BYMINUTE must list minutes from 0 to 59'],
    ['FREQ=DAILY;BYHOUR=1;WKST=XX', 'WKST must be one of'],
    ['FREQ=DAILY;BYHOUR=1;UNTIL=2027-06-30', 'UNTIL must be a date YYYYMMDD or a UTC date-time YYYYMMDDTHHMMSSZ'],
    ['FREQ=DAILY;BYHOUR=1;UNTIL=20270230', 'UNTIL must be a date'],
    ['FREQ=DAILY;BYHOUR=1;UNTIL=20270630T120000', 'UNTIL must be a date'],
    ['FREQ=DAILY;BYHOUR=1;UNTIL=20270630T250000Z', 'UNTIL must be a date'],
  ])('%s', (text, message) => {
    expect(problems(text).join('; ')).toContain(message);
  });

  it('names every problem of the rule at once', () => {
    expect(problems('FREQ=YEARLY;INTERVAL=0;BYHOUR=99')).toHaveLength(3);
  });
});

describe('weeklyRule', () => {
  it('is FREQ=WEEKLY on the days at the start time, days in week order', () => {
    expect(weeklyRule(['SU', 'TU'], '22:15')).toEqual({ freq: 'WEEKLY', interval: 1, byDay: ['TU', 'SU'], times: [22 * 60 + 15], weekStart: 'MO' });
  });
});
