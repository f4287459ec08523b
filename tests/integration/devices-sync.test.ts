import { describe, expect, it, vi } from 'vitest';
import { devices } from '#lib/devices/repository/devices';
import * as rooms from '#lib/rollups/repository/rooms';
import { recomputeRoom } from '#lib/rollups/rooms';
import { inFilterScope } from '#lib/devices/deviceScope';
import { expectedAggregates } from '#lib/rollups/pure/aggregates';
import { roomKey } from '#lib/devices/types';
import { roomId } from '#lib/store/placeKeys';
import type { DeviceProvider } from '#lib/inventory/provider/index';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import { logger } from '#lib/shared/log';
import { refreshDevice } from '#lib/inventory/refresh';
import { syncAndReport, syncDevices } from '#lib/inventory/sync';
import { emitted } from '../support/emf';
import type { Place, ProviderDevice } from '#lib/devices/types';

// Each test syncs its own fleet: a sync makes the table's inventory equal to the provider's.
const fixed = (fleet: ProviderDevice[]): DeviceProvider => ({
  listDevices: async () => fleet,
  getDevice: async (sn) => fleet.find((d) => d.devicesn === sn),
});
const device = (sn: string, room: string, connected = true, location = 'London'): ProviderDevice => ({
  deviceid: `id-${sn}`,
  devicesn: sn,
  devicemodel: 'X50',
  status: { connected, inCallStatus: connected ? 'ACTIVE' : 'NONE' },
  details: { region: 'EMEA', location, room },
});
const room = (name: string, location = 'London'): Place => ({ region: 'EMEA', location, room: name });
const aggregateOf = async (place: Place) => (await rooms.inPlace(place)).find((r) => roomKey(r) === roomKey(place));

describe('device sync', () => {
  it('stores every device and one aggregate per room that matches the fleet', async () => {
    const fleet = simulatedFleet({ seed: 11, devices: 120, rooms: 30 });
    await syncDevices(fixed(fleet));
    const stored = await rooms.inPlace({});
    expect(stored).toHaveLength(30);
    expect(new Map(stored.map((r) => [roomKey(r), r]))).toEqual(expectedAggregates(fleet));
    expect((await devices.index()).map((d) => d.devicesn).sort()).toEqual(fleet.map((d) => d.devicesn).sort());
  });

  it('writes nothing on a sync that finds no change', async () => {
    const fleet = simulatedFleet({ seed: 12, devices: 40 });
    await syncDevices(fixed(fleet));
    expect(await syncDevices(fixed(fleet))).toEqual({ devices: 40, upserted: 0, removed: 0, roomsRecomputed: 0, skipped: 0, full: false, roomsRead: 0 });
  });

  it('moves a device between rooms: both rooms recounted, the device found in its new room only', async () => {
    await syncDevices(fixed([device('m1', 'A'), device('m2', 'A'), device('m3', 'B', false)]));
    await syncDevices(fixed([device('m1', 'A'), device('m2', 'B'), device('m3', 'B', false)]));
    expect(await aggregateOf(room('A'))).toMatchObject({ deviceCount: 1, online: 1, offline: 0 });
    expect(await aggregateOf(room('B'))).toMatchObject({ deviceCount: 2, online: 1, offline: 1 });
    expect((await devices.get('m2')).details.room).toBe('B');
    expect((await devices.inRoom(room('A'))).map((d) => d.devicesn)).toEqual(['m1']);
  });

  it('removes a vanished device and the aggregate of a room left empty', async () => {
    await syncDevices(fixed([device('v1', 'A'), device('v2', 'Gone')]));
    const result = await syncDevices(fixed([device('v1', 'A')]));
    expect(result.removed).toBe(1);
    await expect(devices.get('v2')).rejects.toThrow('Device v2 not found');
    expect(await aggregateOf(room('Gone'))).toBeUndefined();
    expect(await devices.serialNumbers()).toEqual(['v1']);
  });

  it('skips devices with a malformed name, logs each, and syncs the rest', async () => {
    await syncDevices(fixed([device('u1', 'A'), device('u2', 'A')]));
    const warn = vi.spyOn(logger, 'warn');
    const result = await syncDevices(
      fixed([
        device('u1', 'A', false),
        device('u2', '\ud800'), // a lone surrogate: not Unicode text
        device('u3', 'Lobby\r\nBcc: x'), // control characters
        { ...device('u4\u0000', 'A') },
        device('u5', 'B'),
      ]),
    );
    expect(result).toMatchObject({ skipped: 3, devices: 2 });
    expect(warn.mock.calls.filter(([message]) => String(message).includes('malformed name')).map(([, fields]) => fields)).toEqual([
      { field: 'details.room', devicesn: 'u2' },
      { field: 'details.room', devicesn: 'u3' },
      { field: 'devicesn', devicesn: 'u4\u0000' },
    ]);
    warn.mockRestore();
    expect((await devices.get('u1')).status.connected).toBe(false);
    expect((await devices.get('u5')).details.room).toBe('B');
    // the device reported unreadably is kept as it was, neither moved nor removed
    expect((await devices.get('u2')).details.room).toBe('A');
    expect(await devices.serialNumbers()).toEqual(['u1', 'u2', 'u5']);
    expect(await aggregateOf(room('A'))).toMatchObject({ deviceCount: 2, online: 1, offline: 1 });
  });

  it('skips devices whose names are too long to become keys, and syncs the rest', async () => {
    await syncDevices(fixed([device('k1', 'A'), device('k2', 'A')]));
    const warn = vi.spyOn(logger, 'warn');
    // a room identity is a whole sort key (1,024 bytes), names URI-encoded: 100 emoji are 1,200 bytes
    const result = await syncDevices(fixed([device('k1', 'A', false), device('k2', '🎥'.repeat(100)), device('会'.repeat(400), 'A'), device('k3', 'B')]));
    expect(result).toMatchObject({ skipped: 2, devices: 2 });
    expect(warn.mock.calls.filter(([message]) => String(message).includes('malformed name')).map(([, fields]) => fields)).toEqual([
      { field: 'details.room', devicesn: 'k2' },
      { field: 'devicesn', devicesn: '会'.repeat(400) },
    ]);
    warn.mockRestore();
    expect((await devices.get('k1')).status.connected).toBe(false);
    // the device reported unreadably is kept as it was
    expect((await devices.get('k2')).details.room).toBe('A');
    expect(await devices.serialNumbers()).toEqual(['k1', 'k2', 'k3']);
    // a room whose identity fills the sort key exactly is stored
    const full = 'r'.repeat(1024 - roomId(room('')).length);
    expect(await syncDevices(fixed([device('k1', 'A'), device('k2', 'A'), device('k3', full)]))).toMatchObject({ skipped: 0, devices: 3 });
    expect(await aggregateOf(room(full))).toMatchObject({ deviceCount: 1 });
  });

  it('publishes DevicesSkippedInvalid with the sync\'s other figures', async () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    try {
      const lines = await emitted(() => syncAndReport(fixed([device('m1', 'A'), device('m2', 'Lobby\u0007'), device('m3\ud800', 'A')])));
      const sync = lines.find((line) => line.area === 'sync');
      expect(sync?._aws.CloudWatchMetrics[0]!.Metrics).toEqual(expect.arrayContaining([{ Name: 'DevicesSkippedInvalid', Unit: 'Count' }]));
      expect(sync).toMatchObject({ SyncRuns: 1, SyncFailed: 0, Devices: 1, DevicesSkippedInvalid: 2 });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('recomputes a status change into the room counts', async () => {
    await syncDevices(fixed([device('s1', 'A'), device('s2', 'A')]));
    await syncDevices(fixed([device('s1', 'A', false), device('s2', 'A')]));
    expect(await aggregateOf(room('A'))).toMatchObject({ deviceCount: 2, online: 1, offline: 1 });
  });
});

describe('room aggregates', () => {
  it('roll up the worst alarm severity of a room, OK again once cleared', async () => {
    await syncDevices(fixed([device('a1', 'A'), device('a2', 'A')]));
    await devices.put({ ...device('a1', 'A'), alarmSeverity: 3 });
    await devices.put({ ...device('a2', 'A'), alarmSeverity: 2 });
    expect((await recomputeRoom(room('A')))?.roomStatus).toBe('Major');
    await devices.put(device('a2', 'A'));
    await devices.put(device('a1', 'A'));
    expect((await recomputeRoom(room('A')))?.roomStatus).toBe('OK');
    expect((await aggregateOf(room('A')))?.roomStatus).toBe('OK');
  });

  it('survive concurrent recomputes of the same room', async () => {
    await syncDevices(fixed([device('c1', 'A'), device('c2', 'A', false)]));
    await devices.put(device('c2', 'A', true));
    await Promise.all(Array.from({ length: 6 }, () => recomputeRoom(room('A'))));
    expect(await aggregateOf(room('A'))).toMatchObject({ deviceCount: 2, online: 2, offline: 0 });
  });

  it('answer every scope with exactly the rooms in it', async () => {
    const fleet = simulatedFleet({ seed: 13, devices: 200, rooms: 60 });
    await syncDevices(fixed(fleet));
    const all = await rooms.inPlace({});
    const scopes = [
      { region: 'EMEA' },
      { location: 'Tokyo' },
      { room: 'Room 2' },
      { region: 'APAC', location: 'Tokyo' },
      { region: 'APAC', room: 'Room 1' },
      { location: 'London', room: 'Room 3' },
      { region: 'EMEA', location: 'London', room: 'Room 1' },
      { region: 'EMEA', location: 'Tokyo' },
      { region: 'Nowhere' },
    ];
    for (const scope of scopes) {
      expect(await rooms.inPlace(scope), JSON.stringify(scope)).toEqual(all.filter((r) => inFilterScope(scope, r)));
    }
  });
});

describe('device list', () => {
  it('pages through every device of a scope exactly once', async () => {
    const fleet = simulatedFleet({ seed: 14, devices: 90, rooms: 20 });
    await syncDevices(fixed(fleet));
    const scope = await rooms.inPlace({});
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await devices.page(scope, 7, cursor, 'all');
      expect(page.items.length).toBeLessThanOrEqual(7);
      seen.push(...page.items.map((d) => d.devicesn));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen.sort()).toEqual(fleet.map((d) => d.devicesn).sort());
    expect((await devices.inRooms(scope)).map((d) => d.devicesn).sort()).toEqual(seen);
  });

  it('refuses a cursor it did not answer', async () => {
    await expect(devices.page([], 5, 'not-a-cursor', 'all')).rejects.toThrow('cursor is not valid');
  });
});

describe('refresh', () => {
  it('stores the live status, recounts the room and answers lastRefresh', async () => {
    await syncDevices(fixed([device('r1', 'A'), device('r2', 'A')]));
    const live = fixed([device('r1', 'A', false), device('r2', 'A')]);
    const answer = await refreshDevice(live, 'r1');
    expect(answer.status.connected).toBe(false);
    expect(answer.deviceconnected).toBe(false);
    expect(Date.parse(answer.refreshInfo.lastRefresh)).not.toBeNaN();
    expect((await devices.get('r1')).status.connected).toBe(false);
    expect(await aggregateOf(room('A'))).toMatchObject({ online: 1, offline: 1 });
  });

  it('answers not found for a serial number the store does not know', async () => {
    await expect(refreshDevice(fixed([]), 'unknown-sn')).rejects.toThrow('Device unknown-sn not found');
  });
});
