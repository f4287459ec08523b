import { describe, expect, it } from 'vitest';
import { afterPlan, holding, inhibitedRaises, suppressRaises } from '#lib/alarms/inhibition/pure/suppress';
import { planAlarms } from '#lib/alarms/engine/pure/plan';
import { parentHolds, parentProblem, parentPlaceOf, sameEpisode, placeKey, suppressionOf, type ParentFacts } from '#lib/alarms/inhibition/pure/rules';
import type { Place } from '#lib/devices/types';
import { buildDigest, introOf, subjectOf } from '#lib/notify/pure/digest';
import { payloadOf } from '#lib/notify/pure/formats';
import { notificationGate, transitionNotice } from '#lib/notify/pure/notice';
import { storedDevice, T0, watcherRecord } from '../support/records';

const room: Place = { region: 'EMEA', location: 'London', room: 'Room 1' };
const location = { region: 'EMEA', location: 'London' };
const facts = (counts: Record<string, { deviceCount: number; offline: number }>, firing: Record<string, Place[]> = {}): ParentFacts => ({
  counts: new Map(Object.entries(counts)),
  firing: new Map(Object.entries(firing)),
});

describe('parent conditions (issue 28 item 2)', () => {
  it('judges roomOffline over the room: it holds when every device of the room is offline', () => {
    const parent = { condition: 'roomOffline' } as const;
    const scope = parentPlaceOf(parent, room);
    expect(scope).toEqual(room);
    expect(parentHolds(parent, scope, facts({ [placeKey(room)]: { deviceCount: 3, offline: 3 } }))).toBe(true);
    expect(parentHolds(parent, scope, facts({ [placeKey(room)]: { deviceCount: 3, offline: 2 } }))).toBe(false);
    expect(parentHolds(parent, scope, facts({}))).toBe(false);
  });

  it('judges locationOffline over the location: it holds from percent% of its devices offline', () => {
    const parent = { condition: 'locationOffline', percent: 30 } as const;
    const scope = parentPlaceOf(parent, room);
    expect(scope).toEqual(location);
    const at = (offline: number) => parentHolds(parent, scope, facts({ [placeKey(location)]: { deviceCount: 10, offline } }));
    expect([at(0), at(2), at(3), at(10)]).toEqual([false, false, true, true]);
    expect(parentHolds({ condition: 'locationOffline', percent: 100 }, scope, facts({ [placeKey(location)]: { deviceCount: 10, offline: 9 } }))).toBe(false);
  });

  it('judges a parent watcher by its firing alarms inside the room or the location', () => {
    const elsewhere = { ...room, room: 'Room 2' };
    const firing = facts({}, { p: [elsewhere] });
    expect(parentHolds({ condition: 'watcher', watcherId: 'p', over: 'room' }, room, firing)).toBe(false);
    expect(parentHolds({ condition: 'watcher', watcherId: 'p', over: 'location' }, location, firing)).toBe(true);
    expect(parentHolds({ condition: 'watcher', watcherId: 'q', over: 'location' }, location, firing)).toBe(false);
  });

  it('tells the parent problem in words', () => {
    const counts = facts({ [placeKey(location)]: { deviceCount: 27, offline: 10 }, [placeKey(room)]: { deviceCount: 2, offline: 2 } });
    expect(parentProblem({ condition: 'locationOffline', percent: 30 }, location, counts)).toBe('location EMEA / London: 37% of devices offline');
    expect(parentProblem({ condition: 'roomOffline' }, room, counts)).toBe('room EMEA / London / Room 1: all 2 devices offline');
    expect(parentProblem({ condition: 'watcher', watcherId: 'p', over: 'room' }, room, counts, 'network down')).toBe('room EMEA / London / Room 1: watcher "network down" firing');
  });

  it('names one episode by its condition, scope and start', () => {
    const a = suppressionOf({ condition: 'roomOffline' }, room, T0);
    expect(a).toEqual({ condition: 'roomOffline', ...room, since: T0 });
    expect(sameEpisode(a, { ...a })).toBe(true);
    expect(sameEpisode(a, { ...a, since: '2024-06-11T11:00:00.000Z' })).toBe(false);
    expect(sameEpisode(a, { ...a, room: 'Room 2' })).toBe(false);
  });
});

describe('suppressing the raises of a plan', () => {
  const inhibited = watcherRecord({ id: 'child', inhibitedBy: { condition: 'locationOffline', percent: 50 } });
  const plain = watcherRecord({ id: 'plain' });
  const devices = [storedDevice('A', false, 'Room 1'), storedDevice('B', false, 'Room 2')];
  const plan = planAlarms({ watchers: [inhibited, plain], devices, open: [], now: T0 });

  it('judges only the raises of inhibited watchers, each over its scope', () => {
    const judged = inhibitedRaises(plan.raise, [inhibited, plain]);
    expect(judged.map((j) => [j.watcherId, j.scope])).toEqual([
      ['child', location],
      ['child', location],
    ]);
    expect(new Set(judged.map((j) => j.episode)).size).toBe(1);
  });

  it('marks the raises whose parent holds with the start of their episode, and leaves the others as planned', () => {
    const judged = inhibitedRaises(plan.raise, [inhibited, plain]);
    const held = holding(judged, facts({ [placeKey(location)]: { deviceCount: 4, offline: 2 } }));
    const since = '2024-06-11T09:59:00.000Z';
    const raises = suppressRaises(plan.raise, held, new Map([[judged[0]!.episode, since]]));
    expect(raises.filter((r) => r.alarm.watcherId === 'child').map((r) => r.alarm.suppressedBy)).toEqual([
      { condition: 'locationOffline', percent: 50, ...location, since },
      { condition: 'locationOffline', percent: 50, ...location, since },
    ]);
    expect(raises.filter((r) => r.alarm.watcherId === 'plain').every((r) => r.alarm.suppressedBy === undefined)).toBe(true);
    expect(holding(judged, facts({ [placeKey(location)]: { deviceCount: 5, offline: 2 } }))).toEqual([]);
    // an episode being released suppresses nothing
    expect(suppressRaises(plan.raise, held, new Map([[judged[0]!.episode, undefined]]))).toEqual(plan.raise);
  });

  it('counts a parent watcher\'s alarms the same plan raises or clears', () => {
    const parent = watcherRecord({ id: 'parent' });
    const child = watcherRecord({ id: 'kid', severity: 3, inhibitedBy: { condition: 'watcher', watcherId: 'parent', over: 'room' } });
    const both = planAlarms({ watchers: [parent, child], devices: [storedDevice('A', false, 'Room 1')], open: [], now: T0 });
    const judged = inhibitedRaises(both.raise, [parent, child]);
    expect(holding(judged, facts({}, { parent: [] }))).toEqual([]);
    expect(holding(judged, afterPlan(facts({}, { parent: [] }), both))).toHaveLength(1);
    const stale = { ...storedDevice('A', true, 'Room 1').details, devicesn: 'A' };
    const clear = { alarm: { ...both.raise[0]!.alarm, ...stale }, reason: 'resolved' as const, notify: both.raise[0]!.alarm.notify, silencedBy: [], inMaintenance: [] };
    const cleared = afterPlan(facts({}, { parent: [stale] }), { raise: [], clear: [clear] });
    expect(cleared.firing.get('parent')).toEqual([]);
  });
});

describe('what a suppressed alarm sends', () => {
  const suppressedBy = suppressionOf({ condition: 'roomOffline' }, room, T0);
  const alarm = { watcherId: 'w1', devicesn: 'A', deviceid: 'id-A', severity: 2 as const, ...room, raisedAt: T0, suppressedBy };

  it('nothing: its raise and clear notices are marked silenced and stored suppressed, and it is never reminded', () => {
    expect(notificationGate(alarm, [])).toMatchObject({ suppressed: true, remind: false });
    expect(notificationGate({ ...alarm, suppressedBy: undefined }, [])).toMatchObject({ suppressed: false, remind: true });
    const { notice, delivery } = transitionNotice('raised', alarm, { sendEmail: true, emails: ['ops@example.com'] }, T0, []);
    expect(notice?.silenced).toBe(true);
    expect(delivery).toBe('suppressed');
  });

  it('the parent digest tells the problem and the count of what it suppressed', () => {
    const digest = buildDigest({
      type: 'alarms.inhibited',
      at: T0,
      watcher: { id: 'w1', description: 'codec offline', severity: 2, type: 'offline' },
      alarms: [{ id: 'w1:A', devicesn: 'A', deviceid: 'id-A', severity: 2, ...room, raisedAt: T0 }],
      parent: 'location EMEA / London: 37% of devices offline',
    });
    expect(introOf(digest)).toBe('location EMEA / London: 37% of devices offline; 1 alarm of watcher "codec offline" (Major) suppressed.');
    expect(subjectOf(digest)).toBe('[Major] Suppressed: 1 device offline in EMEA / London / Room 1');
    expect(payloadOf(digest, 'd1', T0)).toMatchObject({ type: 'alarms.inhibited', parent: 'location EMEA / London: 37% of devices offline', totalAlarms: 1 });
  });
});
