import { describe, expect, it } from 'vitest';
import { groupRooms, marksOf, worstOf } from '../../board/src/groups';
import type { Alarm, Room } from '../../board/src/state';
import { localTime, utcTime } from '../../board/src/time';

const room = (region: string, location: string, name: string, roomStatus: Room['roomStatus'] = 'OK'): Room => ({
  region, location, room: name, roomStatus, deviceCount: 2, online: 2, offline: 0,
});
const alarm = (id: string, where: Room, marks: Partial<Alarm> = {}): Alarm => ({
  id, severity: 2, devicesn: id, region: where.region, location: where.location, room: where.room, raisedAt: '2026-01-01T00:00:00.000Z', ...marks,
});
const NOW = '2026-01-01T01:00:00.000Z';

describe('status board groups', () => {
  it('names the worst status of a set of rooms, OK for none', () => {
    expect(worstOf(['OK', 'Minor', 'Major', 'Info'])).toBe('Major');
    expect(worstOf(['Info', 'Critical'])).toBe('Critical');
    expect(worstOf([])).toBe('OK');
  });

  it('groups rooms by region and location, each with its counts and worst status', () => {
    const groups = groupRooms([room('EMEA', 'London', 'A'), room('EMEA', 'London', 'B', 'Minor'), room('EMEA', 'Berlin', 'A'), room('AMER', 'London', 'A')]);
    expect(groups.map((g) => [g.region, g.location, g.rooms.length])).toEqual([['EMEA', 'London', 2], ['AMER', 'London', 1], ['EMEA', 'Berlin', 1]]);
    expect(groups[0]).toMatchObject({ worst: 'Minor', counts: { Critical: 0, Major: 0, Minor: 1, Info: 0, OK: 1 } });
  });

  it('puts the worst group first, then the one with more rooms at that status, then by name; the worst rooms first inside each', () => {
    const groups = groupRooms([
      room('AMER', 'Austin', 'A'),
      room('EMEA', 'Berlin', 'A', 'Major'),
      room('EMEA', 'Berlin', 'B', 'Critical'),
      room('EMEA', 'London', 'A', 'Critical'),
      room('EMEA', 'London', 'B', 'Critical'),
      room('EMEA', 'London', 'C', 'OK'),
      room('APAC', 'Tokyo', 'Z', 'Info'),
      room('APAC', 'Osaka', 'Y', 'Info'),
    ]);
    expect(groups.map((g) => `${g.location}:${g.worst}`)).toEqual(['London:Critical', 'Berlin:Critical', 'Osaka:Info', 'Tokyo:Info', 'Austin:OK']);
    expect(groups[0]!.rooms.map((r) => r.room)).toEqual(['A', 'B', 'C']);
    expect(groups[1]!.rooms.map((r) => `${r.room}:${r.roomStatus}`)).toEqual(['B:Critical', 'A:Major']);
  });

  it('marks a room acknowledged or silenced when every firing alarm of it is, and counts a partial acknowledgement', () => {
    const a = room('EMEA', 'London', 'A', 'Major');
    const other = room('EMEA', 'London', 'B', 'Major');
    expect(marksOf(a, [alarm('1', a, { acknowledged: true }), alarm('2', a, { acknowledged: true, silenced: true }), alarm('3', other)], NOW)).toEqual({
      firing: 2, acknowledged: 2, silenced: 1, marks: ['acknowledged'],
    });
    expect(marksOf(a, [alarm('1', a, { silenced: true }), alarm('2', a, { acknowledged: true, silenced: true })], NOW).marks).toEqual(['silenced']);
    expect(marksOf(a, [], NOW)).toEqual({ firing: 0, acknowledged: 0, silenced: 0, marks: [] });
  });

  it('marks a room in maintenance while one of its windows is open', () => {
    const held: Room = { ...room('EMEA', 'London', 'A'), inMaintenance: true, maintenance: [{ id: 'w', comment: 'patching', closesAt: '2026-01-01T02:00:00.000Z' }] };
    expect(marksOf(held, [], NOW).marks).toEqual(['maintenance']);
    expect(marksOf(held, [], '2026-01-01T02:00:00.000Z').marks).toEqual([]);
  });
});

describe('status board times', () => {
  it('shows date, time and zone in the viewer zone, and the same instant in UTC for the tooltip', () => {
    const at = '2026-11-28T17:31:02.000Z';
    expect(localTime(at, 'Asia/Tokyo', 'en-GB')).toBe('29 Nov 2026, 02:31:02 GMT+9');
    expect(localTime(at, 'UTC', 'en-GB')).toBe('28 Nov 2026, 17:31:02 UTC');
    expect(utcTime(at)).toBe('2026-11-28 17:31:02 UTC');
  });
});
