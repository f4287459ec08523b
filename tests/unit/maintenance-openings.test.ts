import { describe, expect, it } from 'vitest';
import { caps } from '#lib/shared/caps';
import type { MaintenanceWindow, WindowInput } from '#lib/maintenance/types';
import { maintenanceOpenings } from '#lib/maintenance/pure/openings';
import { MAX_OPENINGS_A_DAY } from '#lib/maintenance/pure/schedule';
import { answerOf, checkWindow, openWindowsAt } from '#lib/maintenance/pure/windows';

const NOW = Date.parse('2026-12-01T12:00:00Z');
const DAY = 86_400_000;
const hours = Array.from({ length: 24 }, (_, hour) => hour).join(',');
const EVERY_TWO_MINUTES = `FREQ=DAILY;BYHOUR=${hours};BYMINUTE=${Array.from({ length: 30 }, (_, i) => i * 2).join(',')}`;
const TWICE_AN_HOUR = `FREQ=DAILY;BYHOUR=${hours};BYMINUTE=0,30`;

const input = (rrule: string, durationMinutes = 1): WindowInput => ({
  matchers: { region: 'EMEA', location: 'Berlin' },
  schedule: { rrule, durationMinutes, timeZone: 'Europe/Berlin' },
  comment: 'c',
});
const stored = (id: string, rrule: string, matchers: MaintenanceWindow['matchers'] = { region: 'EMEA' }): MaintenanceWindow => ({
  id,
  matchers,
  schedule: { rrule, durationMinutes: 10, timeZone: 'Europe/Berlin' },
  comment: 'c',
  createdBy: 'api-key',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
});

describe('openings a day are capped', () => {
  it('refuses 720 openings a day with a 400 naming the schedule', () => {
    const checked = checkWindow(input(EVERY_TWO_MINUTES), NOW);
    expect(checked).toEqual({
      problems: [{ field: 'body.schedule.rrule', message: expect.stringMatching(/^rrule "FREQ=DAILY;BYHOUR=0,1,.*" opens 720 times a day .*at most 48 times a day$/) }],
    });
  });

  it(`accepts ${MAX_OPENINGS_A_DAY} openings a day and refuses one more`, () => {
    expect(checkWindow(input(TWICE_AN_HOUR), NOW)).not.toHaveProperty('problems');
    expect(checkWindow(input('FREQ=DAILY;BYHOUR=0,3,6,9,12,15,18;BYMINUTE=0,5,10,15,20,25,30'), NOW)).toEqual({
      problems: [{ field: 'body.schedule.rrule', message: expect.stringContaining('opens 49 times a day') }],
    });
  });

  it('reads a stored window above the cap as ended: it holds no alarm and no device, and nothing throws', () => {
    const over = stored('over', EVERY_TWO_MINUTES);
    expect(answerOf(over, NOW)).toMatchObject({ status: 'ended', nextOpening: null, nextClosing: null });
    expect(openWindowsAt([over], Date.parse('2026-12-01T12:00:30Z'))).toEqual([]);
    expect(maintenanceOpenings([over], NOW - DAY, NOW).forTarget({ region: 'EMEA' })).toEqual([]);
  });
});

describe('availability computes each window’s openings once per request', () => {
  // the stage's cap of windows, each at the cap of openings a day, over 31 days
  const windowCap = caps.maintenanceWindows();
  const windows = Array.from({ length: windowCap }, (_, i) => stored(`w${String(i).padStart(3, '0')}`, TWICE_AN_HOUR, { region: 'EMEA' }));
  const days = 31;
  const from = Date.parse('2026-11-01T00:00:00Z');
  const to = from + days * DAY;
  const bound = windowCap * MAX_OPENINGS_A_DAY * (days + 2);
  const devices = (n: number) => Array.from({ length: n }, (_, i) => ({ region: 'EMEA', location: 'Berlin', room: `R${i % 20}`, devicesn: `SN${i}` }));

  it(`computes at most windows x ${MAX_OPENINGS_A_DAY} x (days + 2) openings, however many devices it counts`, () => {
    const one = maintenanceOpenings(windows, from, to);
    one.forTarget(devices(1)[0]!);
    const many = maintenanceOpenings(windows, from, to);
    for (const device of devices(2_000)) many.forTarget(device);
    expect(windowCap).toBe(200);
    expect(one.work.computed).toBeGreaterThan(windowCap * MAX_OPENINGS_A_DAY * (days - 1));
    expect(one.work.computed).toBeLessThanOrEqual(bound);
    expect(many.work).toEqual(one.work); // 2,000 devices held by the same windows share one list
  });

  it('hands each distinct set of windows its list once', () => {
    const split = windows.map((window, i) => (i % 2 === 0 ? window : { ...window, matchers: { region: 'EMEA', room: 'R0' } }));
    const openings = maintenanceOpenings(split, from, to);
    const lists = devices(2_000).map((device) => openings.forTarget(device));
    expect(new Set(lists).size).toBe(2); // room R0's devices, and every other device
    expect(openings.work.computed).toBeLessThanOrEqual(bound);
    expect(openings.work.handedOut).toBeLessThanOrEqual(2 * bound);
  });

  it('leaves out windows naming a watcher: they hold alarms, not availability', () => {
    const openings = maintenanceOpenings([{ ...windows[0]!, matchers: { region: 'EMEA', watcherId: 'w' } }], from, to);
    expect(openings.forTarget({ region: 'EMEA', watcherId: 'w' })).toEqual([]);
    expect(openings.work.computed).toBe(0);
  });
});
