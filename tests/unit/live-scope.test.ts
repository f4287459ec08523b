import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StoredChange } from '#lib/alarms/repository/changes';
import { messageOf } from '#lib/live/messages';
import { covers, filterScopeKey, filterScopeKeysOf } from '#lib/live/scope';

const place = { region: 'EMEA', location: 'Berlin', room: 'Room 1' };

describe('live scope keys', () => {
  it('a change in one room concerns the eight scopes made of its names or all', () => {
    const keys = filterScopeKeysOf(place);
    expect(keys).toHaveLength(8);
    expect(keys).toContain(filterScopeKey({ regionName: 'all', locationName: 'all', roomName: 'all' }));
    expect(keys).toContain(filterScopeKey({ regionName: 'all', locationName: 'all', roomName: 'Room 1' }));
    expect(keys).toContain(filterScopeKey({ regionName: 'EMEA', locationName: 'Berlin', roomName: 'Room 1' }));
    expect(keys).not.toContain(filterScopeKey({ regionName: 'EMEA', locationName: 'London', roomName: 'all' }));
  });

  it('names holding the key separator never collide', () => {
    expect(filterScopeKey({ regionName: 'a#b', locationName: 'c', roomName: 'all' })).not.toBe(filterScopeKey({ regionName: 'a', locationName: 'b#c', roomName: 'all' }));
  });

  it('a subscriber hears of a room exactly when its filter covers the room (the rule of device queries)', () => {
    const names = fc.constantFrom('all', 'EMEA', 'APAC', 'Berlin', 'Room 1', 'Room 2', 'a#b', 'a');
    fc.assert(
      fc.property(names, names, names, names, names, names, (regionName, locationName, roomName, region, location, room) => {
        fc.pre(region !== 'all' && location !== 'all' && room !== 'all');
        const filter = { regionName, locationName, roomName };
        const where = { region, location, room };
        expect(filterScopeKeysOf(where).includes(filterScopeKey(filter))).toBe(covers(filter, where));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('live messages', () => {
  it('a stored room becomes {type: room, at, room} with the aggregate fields only', () => {
    const change: StoredChange = {
      kind: 'room',
      at: '2026-01-01T00:00:00.000Z',
      room: { ...place, deviceCount: 4, online: 3, offline: 1, roomStatus: 'Major', extra: 'x' } as never,
    };
    expect(messageOf(change)).toEqual({
      type: 'room',
      at: '2026-01-01T00:00:00.000Z',
      room: { ...place, roomStatus: 'Major', deviceCount: 4, online: 3, offline: 1 },
    });
  });

  it('a stored alarm becomes {type: alarm, event, at, alarm}', () => {
    const alarm = { id: 'w:sn', watcherId: 'w', devicesn: 'sn', deviceid: 'd', severity: 2 as const, state: 'firing' as const, raisedAt: '2026-01-01T00:00:00.000Z', ...place };
    expect(messageOf({ kind: 'alarm', event: 'raised', at: alarm.raisedAt, alarm })).toEqual({ type: 'alarm', event: 'raised', at: alarm.raisedAt, alarm });
  });
});
