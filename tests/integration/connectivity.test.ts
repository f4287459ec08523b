import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { historyExpiry } from '#lib/shared/retention';
import { doc, tableName } from '#lib/store/client';
import * as connectivity from '#lib/devices/repository/connectivity';
import { availabilityIn } from '#lib/devices/availability';
import { recordRoomCounts } from '#lib/rollups/availability';
import type { DeviceProvider } from '#lib/inventory/provider/index';
import { refreshDevice } from '#lib/inventory/refresh';
import { syncDevices } from '#lib/inventory/sync';
import type { ProviderDevice } from '#lib/devices/types';
import { rollupPk } from '#lib/rollups/entities';
import { connectivityPk } from '#lib/devices/entities';

let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const device = (region: string, sn: string, room: string, connected: boolean, inCallStatus = 'NONE'): ProviderDevice => ({
  deviceid: `id-${sn}`,
  devicesn: sn,
  devicemodel: 'X50',
  status: { connected, inCallStatus },
  details: { region, location: 'Paris', room },
});
const fixed = (fleet: () => ProviderDevice[]): DeviceProvider => ({
  listDevices: async () => fleet(),
  getDevice: async (sn) => fleet().find((d) => d.devicesn === sn),
});

describe('device connectivity history', () => {
  it('records the first observation and every connected flip a sync or refresh sees, newest first, with retention', async () => {
    const region = unique('R');
    const sn = `${region}-1`;
    let live = device(region, sn, 'A', true);
    const provider = fixed(() => [live]);
    await syncDevices(provider);
    live = device(region, sn, 'A', true, 'ACTIVE');
    await syncDevices(provider); // in-call change only: no transition
    live = device(region, sn, 'A', false);
    await syncDevices(provider);
    await syncDevices(provider); // no change: nothing recorded
    live = device(region, sn, 'A', true);
    await refreshDevice(provider, sn);

    const { items, nextCursor } = await connectivity.history(sn, iso(0), iso(Date.now() + HOUR), 10);
    expect(items.map((t) => [t.connected, t.inCallStatus])).toEqual([[true, 'NONE'], [false, 'NONE'], [true, 'NONE']]);
    expect(items[0]!.at >= items[1]!.at && items[1]!.at >= items[2]!.at).toBe(true);
    expect(nextCursor).toBeNull();

    const first = await connectivity.history(sn, iso(0), iso(Date.now() + HOUR), 2);
    expect(first.items).toEqual(items.slice(0, 2));
    expect((await connectivity.history(sn, iso(0), iso(Date.now() + HOUR), 2, first.nextCursor!)).items).toEqual(items.slice(2));
    expect((await connectivity.history(sn, iso(Date.now() + 60_000), iso(Date.now() + HOUR), 10)).items).toEqual([]);

    const { Items } = await doc.send(
      new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': connectivityPk(sn) } }),
    );
    expect(Items!.map((item) => item.expiresAt)).toEqual(Items!.map((item) => historyExpiry(String(item.SK))));
  });
});

describe('availability rollups', () => {
  it('keeps one rollup per room and day as counts change, and answers availability below 1 after an outage', async () => {
    const region = unique('R');
    let down = false;
    const provider = fixed(() => [device(region, `${region}-1`, 'A', !down), device(region, `${region}-2`, 'A', true), device(region, `${region}-3`, 'B', true)]);
    const start = Date.now();
    await syncDevices(provider);
    down = true;
    await syncDevices(provider);
    await new Promise((resolve) => setTimeout(resolve, 300));

    const { Items } = await doc.send(
      new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': rollupPk({ region, location: 'Paris', room: 'A' }) } }),
    );
    expect(Items).toHaveLength(1);
    expect(Items![0]).toMatchObject({ SK: iso(Date.now()).slice(0, 10), connected: 1, observed: 2, region, room: 'A' });

    const answer = await availabilityIn({ region }, iso(start - 1000), iso(Date.now()));
    expect(answer.rooms.map((r) => [r.room, r.deviceCount])).toEqual([['A', 2], ['B', 1]]);
    expect(answer.rooms[0]!.availability).toBeLessThan(1);
    expect(answer.rooms[0]!.availability).toBeGreaterThan(0.5);
    expect(answer.rooms[1]!.availability).toBe(1);
    expect(answer.overall).toBeLessThan(1);
  });

  it('two writers recording the same change do not count time twice', async () => {
    const place = { region: unique('R'), location: 'Paris', room: 'C' };
    const t0 = Date.now() - 2 * HOUR;
    await recordRoomCounts(place, { connected: 1, observed: 1 }, iso(t0));
    await Promise.all([
      recordRoomCounts(place, { connected: 0, observed: 1 }, iso(t0 + HOUR)),
      recordRoomCounts(place, { connected: 0, observed: 1 }, iso(t0 + HOUR)),
    ]);
    const rollups = await connectivity.rollups(place, iso(t0).slice(0, 10), iso(Date.now()).slice(0, 10));
    const observed = rollups.reduce((sum, r) => sum + r.observedSeconds.reduce((a, b) => a + b, 0), 0);
    expect(observed).toBe(3600);
  });
});
