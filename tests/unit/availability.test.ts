import { describe, expect, it } from 'vitest';
import { advance, observedIn, ratio, windowDays, worstFirst, type DayRollup } from '#lib/rollups/pure/availability';
import { connectivityChanges } from '#lib/inventory/pure/syncPlan';
import type { StoredDevice } from '#lib/devices/types';

const DAY0 = '2024-06-11';
const t = (hours: number) => new Date(Date.parse(`${DAY0}T00:00:00.000Z`) + hours * 3_600_000).toISOString();

/** The rollups a room keeps after a series of count changes (what the store would hold). */
const replay = (changes: [number, number, number][]): DayRollup[] => {
  const byDay = new Map<string, DayRollup>();
  let latest: DayRollup | undefined;
  for (const [hours, connected, observed] of changes) {
    for (const rollup of advance(latest, t(hours), { connected, observed })) {
      byDay.set(rollup.day, rollup);
      latest = rollup;
    }
  }
  return [...byDay.values()].sort((a, b) => (a.day < b.day ? -1 : 1));
};

describe('availability arithmetic', () => {
  it('two devices, one down for 6 of 24 hours: 42/48 = 0.875', () => {
    const rollups = replay([[0, 2, 2], [6, 1, 2], [12, 2, 2]]);
    const observed = observedIn(rollups, t(0), t(24));
    expect(observed).toEqual({ connectedSeconds: 42 * 3600, observedSeconds: 48 * 3600 });
    expect(ratio(observed)).toBe(0.875);
  });

  it('extrapolates the last counts after the last change, up to the end of the window', () => {
    const rollups = replay([[0, 4, 4], [1, 3, 4]]);
    // 1 h at 4/4, then 9 h at 3/4: (4 + 27) / 40
    expect(ratio(observedIn(rollups, t(0), t(10)))).toBe(0.775);
  });

  it('carries counts across midnight and over days without any change', () => {
    const rollups = replay([[20, 1, 2], [24 * 3 + 2, 2, 2]]);
    expect(rollups.map((r) => r.day)).toEqual([DAY0, '2024-06-14']);
    // from hour 20 of day 0 to hour 2 of day 3: 54 h at 1 of 2 connected
    const observed = observedIn(rollups, t(20), t(74));
    expect(observed).toEqual({ connectedSeconds: 54 * 3600, observedSeconds: 108 * 3600 });
    // the window's second day (no rollup item of its own) is counted from the counts before it
    expect(ratio(observedIn(rollups, t(24), t(48)))).toBe(0.5);
  });

  it('counts only the part of the window after the room was first observed', () => {
    const rollups = replay([[12, 1, 1]]);
    expect(observedIn(rollups, t(0), t(24))).toEqual({ connectedSeconds: 12 * 3600, observedSeconds: 12 * 3600 });
  });

  it('prorates an hour the window cuts', () => {
    const rollups = replay([[0, 0, 1], [1, 1, 1]]);
    // the window starts half way into hour 0 (down): 0.5 h down, 1 h up
    expect(ratio(observedIn(rollups, t(0.5), t(2)))).toBe(0.6667);
  });

  it('a window before the first rollup sees nothing; a room without rollups uses its counts all along', () => {
    const rollups = replay([[30, 1, 1]]);
    expect(observedIn(rollups.slice(0, 0), t(0), t(24))).toEqual({ connectedSeconds: 0, observedSeconds: 0 });
    expect(observedIn([], t(0), t(10), { connected: 3, observed: 4 })).toEqual({ connectedSeconds: 30 * 3600, observedSeconds: 40 * 3600 });
  });

  it('advance is idempotent: the same counts again change nothing but time', () => {
    const [first] = advance(undefined, t(1), { connected: 1, observed: 2 });
    const [same] = advance(first, t(1), { connected: 1, observed: 2 });
    expect(same).toEqual(first);
    const [later] = advance(first, t(2), { connected: 1, observed: 2 });
    expect(later!.connectedSeconds[1]).toBe(3600);
    expect(later!.observedSeconds[1]).toBe(7200);
  });

  it('rounds to 4 decimals, answers 1 with nothing observed, sorts worst rooms first', () => {
    expect(ratio({ connectedSeconds: 2, observedSeconds: 3 })).toBe(0.6667);
    expect(ratio({ connectedSeconds: 0, observedSeconds: 0 })).toBe(1);
    const room = (name: string, availability: number) => ({ region: 'R', location: 'L', room: name, availability, deviceCount: 1 });
    expect([room('b', 1), room('c', 0.5), room('a', 0.5)].sort(worstFirst).map((r) => r.room)).toEqual(['a', 'c', 'b']);
  });

  it('windowDays names the first and last UTC day a window touches (end exclusive)', () => {
    expect(windowDays(t(-1), t(24))).toEqual({ first: '2024-06-10', last: DAY0 });
  });
});

describe('connectivity transitions', () => {
  const device = (sn: string, connected: boolean, inCallStatus = 'NONE'): StoredDevice => ({
    deviceid: sn,
    devicesn: sn,
    devicemodel: 'X',
    status: { connected, inCallStatus },
    details: { region: 'R', location: 'L', room: 'A' },
  });

  it('records first observations and connected flips, not in-call changes', () => {
    const stored = [device('a', true), device('b', true), device('c', false)];
    const puts = [device('a', false), device('b', true, 'ACTIVE'), device('d', true)];
    expect(connectivityChanges(stored, puts, t(0))).toEqual([
      { devicesn: 'a', at: t(0), connected: false, inCallStatus: 'NONE' },
      { devicesn: 'd', at: t(0), connected: true, inCallStatus: 'NONE' },
    ]);
  });
});
