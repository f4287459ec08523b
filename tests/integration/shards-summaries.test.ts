import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { doc, dynamo, tableName } from '#lib/store/client';
import * as alarms from '#lib/alarms/repository/alarms';
import { devices } from '#lib/devices/repository/devices';
import * as rooms from '#lib/rollups/repository/rooms';
import { recomputeRoom } from '#lib/rollups/rooms';
import * as summaries from '#lib/rollups/repository/summaries';
import { ensureTable } from '#lib/store/definition';
import { countsIn } from '#lib/devices/counts';
import type { DeviceProvider } from '#lib/inventory/provider/index';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import { healSummaries, recountRooms } from '#lib/rollups/recount';
import { countRooms } from '#lib/rollups/pure/summary';
import { zeroCounts } from '#lib/devices/types';
import { syncDevices } from '#lib/inventory/sync';
import type { ProviderDevice } from '#lib/devices/types';
import { SummaryEntity } from '#lib/rollups/entities';

const fixed = (fleet: ProviderDevice[]): DeviceProvider => ({
  listDevices: async () => fleet,
  getDevice: async (sn) => fleet.find((d) => d.devicesn === sn),
});
const SCOPES = [
  {},
  { region: 'EMEA' },
  { location: 'Tokyo' },
  { room: 'Room 2' },
  { region: 'APAC', location: 'Tokyo' },
  { region: 'EMEA', location: 'London', room: 'Room 1' },
  { region: 'Nowhere' },
];
const FILTERS = [
  { regionName: 'all', locationName: 'all', roomName: 'all' },
  { regionName: 'EMEA', locationName: 'all', roomName: 'all' },
  { regionName: 'APAC', locationName: 'Tokyo', roomName: 'all' },
  { regionName: 'Nowhere', locationName: 'all', roomName: 'all' },
  { regionName: 'EMEA', locationName: 'Tokyo', roomName: 'all' },
];

const home = { table: tableName(), shards: process.env.SHARDS };
afterEach(() => {
  process.env.TABLE_NAME = home.table;
  if (home.shards === undefined) delete process.env.SHARDS;
  else process.env.SHARDS = home.shards;
});

/** A fresh table with `shards` shards, holding `fleet` after one sync. */
const storeWith = async (shards: number, fleet: ProviderDevice[]) => {
  process.env.TABLE_NAME = `${home.table}-k${shards}-${Math.random().toString(36).slice(2, 8)}`;
  process.env.SHARDS = String(shards);
  await ensureTable(dynamo, tableName());
  await syncDevices(fixed(fleet));
};

/** Everything the sharded keys answer, for comparison across shard counts. */
const answers = async () => ({
  scopes: await Promise.all(SCOPES.map((scope) => rooms.inPlace(scope))),
  serials: await devices.serialNumbers(),
  index: (await devices.index()).map((d) => d.devicesn).sort(),
  counts: await Promise.all(FILTERS.map((filter) => countsIn(filter))),
});

describe('shards', () => {
  it('answer exactly what one partition answers, whatever K', async () => {
    const fleet = simulatedFleet({ seed: 21, devices: 300, rooms: 80 });
    await storeWith(1, fleet);
    const one = await answers();
    await storeWith(7, fleet);
    expect(await answers()).toEqual(one);
    expect(one.serials).toEqual(fleet.map((d) => d.devicesn).sort());
  });

  it('page the open alarms across shards newest first, each exactly once', async () => {
    process.env.SHARDS = '5';
    const notify = { sendEmail: false, emails: [] };
    const raised = Array.from({ length: 23 }, (_, i) => ({
      watcherId: `w-page-${i % 3}`,
      devicesn: `pg${i}`,
      deviceid: `id${i}`,
      severity: 2 as const,
      region: 'PAGE',
      location: 'L',
      room: 'R',
      state: 'firing' as const,
      raisedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      notify,
    }));
    for (const alarm of raised) await alarms.raise(alarm);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await alarms.list({ region: 'PAGE' }, { limit: 4, cursor });
      if (Array.isArray(page)) throw new Error('expected a page');
      seen.push(...page.items.map((a) => a.devicesn));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...raised].reverse().map((a) => a.devicesn));
  });
});

describe('summaries', () => {
  const expectSummariesRight = async () => {
    for (const filter of FILTERS) {
      const scope = { region: filter.regionName === 'all' ? undefined : filter.regionName, location: filter.locationName === 'all' ? undefined : filter.locationName };
      const fromRooms = countRooms(await rooms.inPlace(Object.fromEntries(Object.entries(scope).filter(([, v]) => v !== undefined))));
      expect(await countsIn(filter), JSON.stringify(filter)).toEqual(fromRooms);
    }
  };

  it('follow syncs that add, change, move and remove devices', async () => {
    const fleet = simulatedFleet({ seed: 22, devices: 200, rooms: 50 });
    await storeWith(4, fleet);
    await expectSummariesRight();
    const changed = fleet.slice(20).map((d, i) =>
      i % 7 === 0 ? { ...d, status: { ...d.status, connected: !d.status.connected } } : i % 11 === 0 ? { ...d, details: { ...d.details, room: 'Moved here' } } : d,
    );
    await syncDevices(fixed(changed));
    await expectSummariesRight();
    expect((await countsIn(FILTERS[0]!)).deviceCount).toBe(180);
  });

  it('follow a room status change from an alarm severity', async () => {
    const fleet = simulatedFleet({ seed: 23, devices: 40, rooms: 10 });
    await storeWith(3, fleet);
    const target = fleet[0]!;
    await devices.setAlarmSeverity(target, 1);
    await recountRooms([target.details]);
    await expectSummariesRight();
    expect((await countsIn(FILTERS[0]!)).Critical).toBe(1);
  });

  it('heal a summary that drifted, but never one a live run is moving', async () => {
    const fleet = simulatedFleet({ seed: 24, devices: 60, rooms: 12 });
    await storeWith(2, fleet);
    const right = await countsIn(FILTERS[1]!);
    const [stored] = await summaries.read([{ region: 'EMEA' }]);
    await doc.send(new PutCommand({ TableName: tableName(), Item: { ...SummaryEntity.key({ region: 'EMEA' }), ...zeroCounts(), deviceCount: 999, version: stored!.version + 1 } }));
    const startedAt = Date.now();
    await summaries.begin('live-run', startedAt, [{ region: 'EMEA' }]);
    expect(await healSummaries()).toBe(0);
    expect((await countsIn(FILTERS[1]!)).deviceCount).toBe(999);
    await summaries.apply('live-run', startedAt, [{ region: 'EMEA' }], new Map());
    expect(await healSummaries()).toBe(1);
    expect(await countsIn(FILTERS[1]!)).toEqual(right);
  });

  it('heal the summaries of a run that died between its room writes and its count', async () => {
    const fleet = simulatedFleet({ seed: 25, devices: 30, rooms: 6 });
    await storeWith(2, fleet);
    const target = fleet[3]!;
    await summaries.begin('dead-run', Date.now() - 16 * 60 * 1000, [{}]);
    await devices.setAlarmSeverity(target, 2);
    await recomputeRoom(target.details);
    expect((await countsIn(FILTERS[0]!)).Major).toBe(0);
    await healSummaries();
    expect((await countsIn(FILTERS[0]!)).Major).toBe(1);
    await expectSummariesRight();
  });
});
