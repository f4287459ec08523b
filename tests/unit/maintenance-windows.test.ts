import { describe, expect, it } from 'vitest';
import type { MaintenanceWindow, WindowInput } from '#lib/maintenance/types';
import { answerOf, checkWindow, givenMatchers, inMaintenance, lastClosing, matchingWindows, openWindowsAt, timeOrderedId, windowMatches } from '#lib/maintenance/pure/windows';

const at = (text: string) => Date.parse(text);
const NOW = at('2026-12-01T12:00:00Z'); // a Tuesday
const input = (overrides: Partial<WindowInput> = {}): WindowInput => ({
  matchers: { region: 'EMEA', location: 'Berlin' },
  schedule: { days: ['TU'], start: '22:00', durationMinutes: 240, timeZone: 'Europe/Berlin' },
  comment: 'weekly patching',
  ...overrides,
});
const fieldsOf = (result: ReturnType<typeof checkWindow>) => ('problems' in result ? result.problems.map((p) => p.field) : []);

const stored = (id: string, overrides: Partial<MaintenanceWindow> = {}): MaintenanceWindow => ({
  id,
  matchers: { region: 'EMEA' },
  schedule: { days: ['TU'], start: '22:00', durationMinutes: 240, timeZone: 'Europe/Berlin' },
  comment: 'c',
  createdBy: 'api-key',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  ...overrides,
});

describe('checkWindow', () => {
  it('accepts a weekly window and keeps only the matchers given, in a fixed order', () => {
    const checked = checkWindow(input({ matchers: { vendor: 'zoom', region: 'EMEA', room: undefined } }), NOW);
    expect(checked).toMatchObject({ matchers: { region: 'EMEA', vendor: 'zoom' }, schedule: { timeZone: 'Europe/Berlin', durationMinutes: 240 } });
    expect(Object.keys(givenMatchers({ vendor: 'v', devicesn: 'd', region: 'r' }))).toEqual(['region', 'devicesn', 'vendor']);
  });

  it('refuses no matcher at all, and "all" as a place', () => {
    expect(fieldsOf(checkWindow(input({ matchers: {} }), NOW))).toEqual(['body.matchers']);
    expect(fieldsOf(checkWindow(input({ matchers: { region: 'all', room: 'all' } }), NOW))).toEqual(['body.matchers.region', 'body.matchers.room']);
  });

  it('refuses a schedule that does not compile, naming its field', () => {
    expect(fieldsOf(checkWindow(input({ schedule: { rrule: 'FREQ=YEARLY;BYHOUR=1', durationMinutes: 60, timeZone: 'UTC' } }), NOW))).toEqual(['body.schedule.rrule']);
    expect(fieldsOf(checkWindow(input({ schedule: { days: ['TU'], start: '22:00', durationMinutes: 60, timeZone: 'Mars/Base' } }), NOW))).toEqual(['body.schedule.timeZone']);
  });

  it('takes the place default zone when the schedule names none, and refuses when there is none', () => {
    const schedule = { days: ['TU' as const], start: '22:00', durationMinutes: 60 };
    expect(checkWindow(input({ schedule }), NOW, 'America/New_York')).toMatchObject({ schedule: { timeZone: 'America/New_York' } });
    expect(fieldsOf(checkWindow(input({ schedule }), NOW))).toEqual(['body.schedule.timeZone']);
  });

  it('refuses an endsAt that leaves no opening from now on, naming endsAt', () => {
    const checked = checkWindow(input({ endsAt: '2026-11-20T00:00:00Z' }), NOW);
    expect(checked).toEqual({ problems: [{ field: 'body.endsAt', message: 'endsAt leaves the window no opening from now on' }] });
  });

  it('refuses a schedule whose UNTIL has passed, naming the schedule', () => {
    expect(fieldsOf(checkWindow(input({ schedule: { rrule: 'FREQ=DAILY;BYHOUR=1;UNTIL=20261101', durationMinutes: 60, timeZone: 'UTC' } }), NOW))).toEqual(['body.schedule']);
  });

  it('accepts a window in its last opening (still open now)', () => {
    expect(checkWindow(input({ endsAt: '2026-12-01T21:30:00Z' }), at('2026-12-01T22:00:00Z'))).toHaveProperty('schedule');
  });
});

describe('answerOf', () => {
  it('adds the status, next opening and next closing at now', () => {
    expect(answerOf(stored('a'), NOW)).toMatchObject({ status: 'scheduled', nextOpening: '2026-12-01T21:00:00.000Z', nextClosing: '2026-12-02T01:00:00.000Z' });
    expect(answerOf(stored('a'), at('2026-12-01T22:00:00Z'))).toMatchObject({ status: 'active', nextOpening: '2026-12-08T21:00:00.000Z', nextClosing: '2026-12-02T01:00:00.000Z' });
    expect(answerOf(stored('a', { endsAt: '2026-12-02T00:00:00.000Z' }), at('2026-12-02T02:00:00Z'))).toMatchObject({ status: 'ended', nextOpening: null, nextClosing: null });
  });
});

describe('lastClosing', () => {
  it('is endsAt plus one opening and an hour (a clock change), none without endsAt', () => {
    expect(lastClosing(stored('a', { endsAt: '2026-12-02T00:00:00.000Z' }))).toBe(at('2026-12-02T05:00:00Z'));
    expect(lastClosing(stored('a'))).toBeUndefined();
  });
});

describe('timeOrderedId', () => {
  it('is a version 7 UUID the contract accepts, sorting by the time it was made', () => {
    const ids = [at('2026-01-01T00:00:00Z'), at('2026-01-01T00:00:00.001Z'), at('2027-06-01T00:00:00Z'), at('2100-01-01T00:00:00Z')].map((ms) => timeOrderedId(ms));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(Array.from({ length: 1000 }, () => timeOrderedId(NOW))).size).toBe(1000);
  });
});

describe('for the alarm engine', () => {
  const alarm = { region: 'EMEA', location: 'Berlin', room: 'R1', devicesn: 'SN1', watcherId: 'w1', vendor: 'zoom' };
  const tuesdayNight = at('2026-12-01T22:00:00Z');

  it('matches when every matcher given equals the target, a vendor matcher only a target with that vendor', () => {
    expect(windowMatches({ region: 'EMEA', room: 'R1' }, alarm)).toBe(true);
    expect(windowMatches({ region: 'EMEA', room: 'R2' }, alarm)).toBe(false);
    expect(windowMatches({ vendor: 'zoom' }, alarm)).toBe(true);
    expect(windowMatches({ vendor: 'zoom' }, { ...alarm, vendor: undefined })).toBe(false);
    expect(windowMatches({ region: 'emea' }, alarm)).toBe(false);
  });

  it('finds the windows open at an instant, then the ones holding each alarm', () => {
    const windows = [
      stored('b', { matchers: { region: 'EMEA' } }),
      stored('a', { matchers: { devicesn: 'SN1' } }),
      stored('c', { matchers: { region: 'AMER' } }),
      stored('d', { matchers: { region: 'EMEA' }, schedule: { days: ['WE'], start: '22:00', durationMinutes: 60, timeZone: 'Europe/Berlin' } }),
    ];
    const open = openWindowsAt(windows, tuesdayNight);
    expect(open.map((o) => o.window.id)).toEqual(['b', 'a', 'c']);
    expect(open[0]!.opening).toEqual({ start: at('2026-12-01T21:00:00Z'), end: at('2026-12-02T01:00:00Z') });
    expect(matchingWindows(open, alarm)).toEqual(['a', 'b']);
    expect(matchingWindows(open, { ...alarm, region: 'APAC', devicesn: 'SN2' })).toEqual([]);
    expect(matchingWindows(openWindowsAt(windows, NOW), alarm)).toEqual([]);
  });

  it('says whether one target is in maintenance at an instant', () => {
    const windows = [stored('a', { matchers: { room: 'R1' } })];
    expect(inMaintenance(windows, alarm, tuesdayNight)).toBe(true);
    expect(inMaintenance(windows, alarm, NOW)).toBe(false);
    expect(inMaintenance(windows, { ...alarm, room: 'R2' }, tuesdayNight)).toBe(false);
  });

  it('passes over a stored window whose zone the runtime no longer knows', () => {
    const lost = stored('x', { schedule: { days: ['TU'], start: '22:00', durationMinutes: 240, timeZone: 'Gone/Zone' } });
    expect(openWindowsAt([lost], tuesdayNight)).toEqual([]);
    expect(answerOf(lost, NOW)).toMatchObject({ status: 'ended', nextOpening: null });
  });
});
