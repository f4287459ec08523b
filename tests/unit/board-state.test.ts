import { describe, expect, it } from 'vitest';
import { alarmChanged, applyMessage, countsOf, emptyState, loaded, roomsApart, roomsInOrder, showPage, type Alarm, type Room } from '../../board/src/state';

const room = (name: string, roomStatus: Room['roomStatus'] = 'OK', deviceCount = 2): Room => ({
  region: 'EMEA', location: 'Berlin', room: name, roomStatus, deviceCount, online: deviceCount, offline: 0,
});
const alarm = (id: string, raisedAt: string, severity = 2): Alarm => ({ id, severity, devicesn: id, region: 'EMEA', location: 'Berlin', room: 'A', raisedAt });
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:00:01.000Z';

describe('status board state', () => {
  it('counts rooms per status the way roomStatusCount does', () => {
    const state = loaded(emptyState(), [room('A', 'Critical'), room('B'), room('C', 'Major'), room('D')], [], T0);
    expect(countsOf(state)).toEqual({ TotalRooms: 4, CriticalStatus: 1, MajorStatus: 1, MinorStatus: 0, InfoStatus: 0, OKStatus: 2 });
  });

  it('a room push recolours that room in place, and a room without devices leaves the grid', () => {
    let state = loaded(emptyState(), [room('A'), room('B')], [], T0);
    state = applyMessage(state, { type: 'room', at: T1, room: room('B', 'Major') });
    expect(roomsInOrder(state).map((r) => [r.room, r.roomStatus])).toEqual([['A', 'OK'], ['B', 'Major']]);
    state = applyMessage(state, { type: 'room', at: T1, room: room('A', 'OK', 0) });
    expect(roomsInOrder(state).map((r) => r.room)).toEqual(['B']);
    expect(countsOf(state)).toMatchObject({ TotalRooms: 1, MajorStatus: 1 });
  });

  it('ignores news about a room older than what it shows', () => {
    let state = loaded(emptyState(), [room('A', 'Critical')], [], T1);
    state = applyMessage(state, { type: 'room', at: T0, room: room('A', 'OK') });
    expect(roomsInOrder(state)[0]?.roomStatus).toBe('Critical');
  });

  it('keeps the newest open alarms: raised ones enter in order, cleared ones leave, acknowledged ones are marked', () => {
    let state = loaded(emptyState(2), [], [alarm('a', T0)], T0);
    state = applyMessage(state, { type: 'alarm', event: 'raised', at: T1, alarm: alarm('b', T1) });
    expect(state.alarms.map((a) => a.id)).toEqual(['b', 'a']);
    state = applyMessage(state, { type: 'alarm', event: 'raised', at: T0, alarm: alarm('c', '2025-12-31T00:00:00.000Z') });
    expect(state.alarms.map((a) => a.id)).toEqual(['b', 'a']);
    state = applyMessage(state, { type: 'alarm', event: 'acknowledged', at: T1, alarm: alarm('a', T0) });
    expect(state.alarms.find((a) => a.id === 'a')?.acknowledged).toBe(true);
    state = applyMessage(state, { type: 'alarm', event: 'cleared', at: T1, alarm: alarm('b', T1) });
    expect(state.alarms.map((a) => a.id)).toEqual(['a']);
  });

  it('marks alarms silenced from silencedBy and from silenced / unsilenced pushes', () => {
    let state = loaded(emptyState(), [], [{ ...alarm('a', T0), silencedBy: ['s1'] }, { ...alarm('b', T0), silencedBy: [] }], T0);
    expect(state.alarms.map((a) => [a.id, a.silenced])).toEqual([['a', true], ['b', false]]);
    state = applyMessage(state, { type: 'alarm', event: 'silenced', at: T1, alarm: { ...alarm('b', T0), silencedBy: ['s2'] } });
    expect(state.alarms.find((a) => a.id === 'b')?.silenced).toBe(true);
    state = applyMessage(state, { type: 'alarm', event: 'unsilenced', at: T1, alarm: { ...alarm('a', T0), silencedBy: [] } });
    expect(state.alarms.find((a) => a.id === 'a')?.silenced).toBe(false);
    // a raise while a silence holds arrives silenced
    state = applyMessage(state, { type: 'alarm', event: 'raised', at: T1, alarm: { ...alarm('c', T1), silencedBy: ['s2'] } });
    expect(state.alarms.find((a) => a.id === 'c')?.silenced).toBe(true);
  });

  it('ignores room and alarm pushes outside its scope (a stale subscription on the server)', () => {
    const emea = { regionName: 'EMEA', locationName: 'all', roomName: 'all' };
    let state = loaded(emptyState(8, emea), [room('A')], [], T0);
    const amerRoom: Room = { ...room('A', 'Critical'), region: 'AMER' };
    state = applyMessage(state, { type: 'room', at: T1, room: amerRoom });
    state = applyMessage(state, { type: 'alarm', event: 'raised', at: T1, alarm: { ...alarm('x', T1), region: 'AMER' } });
    expect(roomsInOrder(state).map((r) => [r.region, r.room, r.roomStatus])).toEqual([['EMEA', 'A', 'OK']]);
    expect(state.alarms).toEqual([]);
    // inside the scope, the same pushes apply; `all` matches any name, a named level only itself
    state = applyMessage(state, { type: 'room', at: T1, room: room('B', 'Major') });
    state = applyMessage(state, { type: 'alarm', event: 'raised', at: T1, alarm: alarm('y', T1) });
    expect(countsOf(state)).toMatchObject({ TotalRooms: 2, MajorStatus: 1 });
    expect(state.alarms.map((a) => a.id)).toEqual(['y']);
    const oneRoom = loaded(emptyState(8, { regionName: 'EMEA', locationName: 'Berlin', roomName: 'A' }), [room('A')], [], T0);
    expect(roomsInOrder(applyMessage(oneRoom, { type: 'room', at: T1, room: room('B') })).map((r) => r.room)).toEqual(['A']);
  });

  it('shows rooms in maintenance apart until their window closes, and keeps the mark through room pushes', () => {
    const held = { inMaintenance: true as const, maintenance: [{ id: 'w1', comment: 'patching', closesAt: '2026-01-01T02:00:00.000Z' }] };
    let state = loaded(emptyState(), [room('A'), { ...room('B'), ...held }], [], T0);
    expect(roomsApart(state, T1)).toEqual({ inService: [room('A')], inMaintenance: [{ ...room('B'), ...held }] });
    state = applyMessage(state, { type: 'room', at: T1, room: room('B', 'Major') });
    expect(roomsApart(state, T1).inMaintenance.map((r) => [r.room, r.roomStatus, r.maintenance?.[0]?.id])).toEqual([['B', 'Major', 'w1']]);
    expect(countsOf(state)).toMatchObject({ TotalRooms: 2, MajorStatus: 1 });
    expect(roomsApart(state, '2026-01-01T02:00:00.000Z').inMaintenance).toEqual([]);
    state = loaded(state, [room('A'), room('B')], [], T1);
    expect(roomsApart(state, T1).inMaintenance).toEqual([]);
  });

  it('keeps every firing alarm for the marks apart from the page the list shows, and follows pushes in both', () => {
    let state = loaded(emptyState(1), [], [alarm('b', T1)], T0, [alarm('a', T0), alarm('b', T1)]);
    expect([...state.firing.keys()].sort()).toEqual(['a', 'b']);
    state = applyMessage(state, { type: 'alarm', event: 'acknowledged', at: T1, alarm: { ...alarm('a', T0), acknowledgedAt: T1 } });
    expect(state.firing.get('a')?.acknowledged).toBe(true);
    expect(state.alarms.map((a) => a.id)).toEqual(['b']);
    state = applyMessage(state, { type: 'alarm', event: 'cleared', at: T1, alarm: alarm('a', T0) });
    expect([...state.firing.keys()]).toEqual(['b']);
  });

  it('on an older page, a raised alarm does not enter the list, and a listed one changes its marks in place', () => {
    let state = showPage(loaded(emptyState(2), [], [], T0), [alarm('old2', T0), alarm('old1', '2025-12-31T00:00:00.000Z')], false);
    state = applyMessage(state, { type: 'alarm', event: 'raised', at: T1, alarm: alarm('new', T1) });
    expect(state.alarms.map((a) => a.id)).toEqual(['old2', 'old1']);
    expect(state.firing.has('new')).toBe(true);
    state = applyMessage(state, { type: 'alarm', event: 'silenced', at: T1, alarm: { ...alarm('old1', '2025-12-31T00:00:00.000Z'), silencedBy: ['s'] } });
    expect(state.alarms.map((a) => [a.id, !!a.silenced])).toEqual([['old2', false], ['old1', true]]);
    // back on the newest page, raised alarms enter again
    state = applyMessage(showPage(state, [], true), { type: 'alarm', event: 'raised', at: T1, alarm: alarm('newer', T1) });
    expect(state.alarms.map((a) => a.id)).toEqual(['newer']);
  });

  it('an acknowledgement answered by the API marks the alarm at once, in the list and for the tiles, keeping its silence', () => {
    let state = loaded(emptyState(), [], [{ ...alarm('a', T0), silencedBy: ['s'] }], T0);
    state = alarmChanged(state, { ...alarm('a', T0), acknowledgedAt: T1 });
    expect(state.alarms[0]).toMatchObject({ id: 'a', acknowledged: true, silenced: true });
    expect(state.firing.get('a')).toMatchObject({ acknowledged: true, silenced: true });
  });

  it('orders alarms raised at the same moment as the API does (watcher, then device, descending), whatever order the pushes come in', () => {
    const at = (devicesn: string): Alarm => ({ ...alarm(devicesn, T1), watcherId: 'w' });
    let state = loaded(emptyState(), [], [at('VD3'), at('VD2'), at('VD1')], T1);
    state = applyMessage(state, { type: 'alarm', event: 'raised', at: T1, alarm: at('VD2') });
    expect(state.alarms.map((a) => a.id)).toEqual(['VD3', 'VD2', 'VD1']);
  });
});
