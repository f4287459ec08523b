import { describe, expect, it } from 'vitest';
import { uniqueSorted } from '#lib/shared/names';
import { inFilterScope, filterScopeOf} from '#lib/devices/deviceScope';
import { expectedAggregates, aggregateOf, roomStatusOf, staleRooms } from '#lib/rollups/pure/aggregates';
import { planSync } from '#lib/inventory/pure/syncPlan';
import * as stats from '#lib/devices/stats';
import type { ProviderDevice, RoomAggregate, StoredDevice } from '#lib/devices/types';
import { toDevice } from '#lib/devices/types';
import { roomAggregate } from '../support/records';

const place = { region: 'EMEA', location: 'London', room: 'R1' };
const device = (sn: string, connected = true, details = place): ProviderDevice => ({
  deviceid: `id-${sn}`,
  devicesn: sn,
  devicemodel: 'X50',
  status: { connected, inCallStatus: 'NONE' },
  details,
});
const aggregate = (overrides: Partial<RoomAggregate>) => roomAggregate({ ...place, deviceCount: 1, online: 1, offline: 0, ...overrides });

describe('filter matching', () => {
  it('treats all and absent fields as no narrowing', () => {
    expect(filterScopeOf({ regionName: 'all', locationName: 'London', roomName: 'all' })).toEqual({ location: 'London' });
    expect(filterScopeOf({})).toEqual({});
  });

  it('treats the wildcard case-sensitively', () => {
    expect(filterScopeOf({ regionName: 'ALL' })).toEqual({ region: 'ALL' });
  });

  it('matches a place only when every narrowed field is equal', () => {
    expect(inFilterScope({ region: 'EMEA', room: 'R1' }, place)).toBe(true);
    expect(inFilterScope({ region: 'EMEA', location: 'Madrid' }, place)).toBe(false);
    expect(inFilterScope({}, place)).toBe(true);
  });

  it('deduplicates and sorts names', () => {
    expect(uniqueSorted(['b', 'a', 'b', 'C'])).toEqual(['C', 'a', 'b']);
  });
});

describe('room status roll-up', () => {
  it('is OK without alarms', () => {
    expect(roomStatusOf([undefined, undefined])).toBe('OK');
  });

  it('is the worst severity among the devices', () => {
    expect(roomStatusOf([4, undefined, 2, 3])).toBe('Major');
    expect(roomStatusOf([4])).toBe('Info');
    expect(roomStatusOf([3, 1])).toBe('Critical');
  });

  it('counts devices, online and offline of a room', () => {
    const members: StoredDevice[] = [device('a'), device('b', false), { ...device('c'), alarmSeverity: 3 }];
    expect(aggregateOf(place, members)).toEqual({ ...place, deviceCount: 3, online: 2, offline: 1, roomStatus: 'Minor' });
  });
});

describe('stats arithmetic over room aggregates', () => {
  const rooms = [
    aggregate({ room: 'R1', deviceCount: 3, online: 2, offline: 1 }),
    aggregate({ room: 'R2', deviceCount: 5, online: 5, offline: 0, roomStatus: 'Critical' }),
    aggregate({ room: 'R3', deviceCount: 1, online: 0, offline: 1, roomStatus: 'Info' }),
  ];

  it('sums devices and connected devices', () => {
    expect(stats.totalDevices(rooms)).toEqual([9]);
    expect(stats.devicesConnected(rooms)).toEqual([7]);
    expect(stats.numDevicesConnected(rooms)).toEqual({ total: 9, online: 7, offline: 2 });
  });

  it('lists counts per room with the spec field names', () => {
    expect(stats.numOfDevicesByRoom(rooms)[1]).toEqual({ name: 'R2', deviceCount: 5, onlineDeviceCount: 5, offlineDeviceCount: 0 });
  });

  it('counts rooms per status level, summing to the total', () => {
    expect(stats.numOfRooms(rooms)).toEqual({ totalRooms: 3 });
    expect(stats.roomStatusCount(rooms)).toEqual({
      TotalRooms: 3,
      CriticalStatus: 1,
      MajorStatus: 0,
      MinorStatus: 0,
      InfoStatus: 1,
      OKStatus: 1,
    });
  });

  it('answers zeros for an empty scope', () => {
    expect(stats.totalDevices([])).toEqual([0]);
    expect(stats.roomStatusCount([]).TotalRooms).toBe(0);
  });
});

describe('device records', () => {
  it('derive deviceconnected from status.connected', () => {
    expect(toDevice(device('a', false)).deviceconnected).toBe(false);
    expect(toDevice(device('b', true)).deviceconnected).toBe(true);
  });
});

describe('sync plan', () => {
  it('writes nothing when the provider reports the stored fleet', () => {
    const plan = planSync([device('a'), device('b')], [device('a'), device('b')]);
    expect(plan.puts).toEqual([]);
    expect(plan.deletes).toEqual([]);
  });

  it('upserts new and changed devices and removes vanished ones', () => {
    const plan = planSync([device('a'), device('b')], [device('a', false), device('c')]);
    expect(plan.puts.map((d) => d.devicesn)).toEqual(['a', 'c']);
    expect(plan.deletes.map((d) => d.devicesn)).toEqual(['b']);
    expect(plan.vanished).toBe(1);
  });

  it('deletes the old item of a device that moved and touches both rooms', () => {
    const other = { ...place, room: 'R2' };
    const plan = planSync([device('a')], [device('a', true, other)]);
    expect(plan.puts[0]?.details).toEqual(other);
    expect(plan.deletes[0]?.details).toEqual(place);
    expect(plan.touched).toEqual([other, place]);
    expect(plan.vanished).toBe(0);
  });

  it('deletes every copy of a device stored in a room other than its own, whichever is read last', () => {
    const other = { ...place, room: 'R2' };
    const stale = device('a');
    const current = device('a', true, other);
    for (const stored of [[stale, current], [current, stale]]) {
      const plan = planSync(stored, [device('a', true, other)]);
      expect(plan.deletes).toEqual([stale]);
      expect(plan.touched).toContainEqual(place);
      expect(plan.vanished).toBe(0);
    }
  });

  it('keeps the alarm severity the alarm engine stored', () => {
    const plan = planSync([{ ...device('a'), alarmSeverity: 2 }], [device('a', false)]);
    expect(plan.puts[0]?.alarmSeverity).toBe(2);
  });

  it('finds stored aggregates that are missing, stale or left over', () => {
    const fleet = [device('a'), device('b', false, { ...place, room: 'R2' })];
    const stored = [aggregate({ room: 'R1' }), aggregate({ room: 'R2', online: 1, offline: 0 }), aggregate({ room: 'R9' })];
    const stale = staleRooms(stored, expectedAggregates(fleet)).map((p) => p.room);
    expect(stale.sort()).toEqual(['R2', 'R9']);
    expect(staleRooms([], expectedAggregates(fleet)).map((p) => p.room).sort()).toEqual(['R1', 'R2']);
  });
});
