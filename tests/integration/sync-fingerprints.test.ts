import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { doc, tableName } from '#lib/store/client';
import { devices } from '#lib/devices/repository/devices';
import { syncFingerprints } from '#lib/inventory/repository/fingerprints';
import * as rooms from '#lib/rollups/repository/rooms';
import { expectedAggregates } from '#lib/rollups/pure/aggregates';
import { roomKey } from '#lib/devices/types';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import { refreshDevice } from '#lib/inventory/refresh';
import { syncDevices } from '#lib/inventory/sync';
import type { ProviderDevice, StoredDevice } from '#lib/devices/types';
import { fixed } from '../support/fleet';
import { DeviceEntity, deviceIndexPk } from '#lib/devices/entities';
import { roomId } from '#lib/store/placeKeys';

// One table for this file: each test syncs a fleet of its own, which replaces the previous one.
const root = join(__dirname, '..', '..');
const fleetOf = (seed: number, size = 200) => simulatedFleet({ seed, devices: size, rooms: 40 });
const flip = (device: ProviderDevice): ProviderDevice => ({ ...device, status: { ...device.status, connected: !device.status.connected } });
const byRoomThenSn = (a: StoredDevice, b: StoredDevice) => (roomKey(a.details) + a.devicesn < roomKey(b.details) + b.devicesn ? -1 : 1);
const shape = (list: readonly ProviderDevice[]) =>
  list.map(({ deviceid, devicesn, devicemodel, status, details }) => ({ deviceid, devicesn, devicemodel, status, details })).sort(byRoomThenSn);

/** The store holds exactly the provider's fleet, and every room aggregate matches it. */
const expectStoreToBe = async (fleet: readonly ProviderDevice[]) => {
  expect(shape(await devices.index())).toEqual(shape(fleet));
  const want = [...expectedAggregates(fleet).values()].sort((a, b) => (roomKey(a) < roomKey(b) ? -1 : 1));
  expect((await rooms.inPlace({})).sort((a, b) => (roomKey(a) < roomKey(b) ? -1 : 1))).toEqual(want);
};

afterEach(() => vi.unstubAllEnvs());

describe('a sync that reads only what changed', () => {
  it('after a full first sync, reads only the rooms whose devices changed, and nothing when nothing did', async () => {
    let fleet = fleetOf(21);
    expect(await syncDevices(fixed(() => fleet))).toMatchObject({ full: true, devices: 200 });
    expect(await syncDevices(fixed(() => fleet))).toMatchObject({ full: false, roomsRead: 0, upserted: 0, removed: 0 });
    fleet = fleet.map((d, i) => (i === 5 || i === 77 ? flip(d) : d));
    const rooms = new Set([fleet[5]!, fleet[77]!].map((d) => roomKey(d.details))).size;
    expect(await syncDevices(fixed(() => fleet))).toMatchObject({ full: false, roomsRead: rooms, upserted: 2, devices: 200 });
    await expectStoreToBe(fleet);
  });

  it('moves a device between rooms, removes a vanished one and adds a new one without a full read', async () => {
    let fleet = fleetOf(22);
    await syncDevices(fixed(() => fleet));
    const [moved, gone] = [fleet[3]!, fleet[9]!];
    const target = fleet.find((d) => roomKey(d.details) !== roomKey(moved.details))!.details;
    fleet = [...fleet.filter((d) => d !== gone).map((d) => (d === moved ? { ...d, details: target } : d)), { ...fleet[0]!, devicesn: 'new-1', deviceid: 'new-1' }];
    expect(await syncDevices(fixed(() => fleet))).toMatchObject({ full: false, upserted: 2, removed: 1 });
    await expectStoreToBe(fleet);
    expect((await devices.get(moved.devicesn)).details).toEqual(target);
  });

  it('removes the last device of a room, and the room', async () => {
    let fleet = fleetOf(23);
    await syncDevices(fixed(() => fleet));
    const lonely = { ...fleet[0]!, devicesn: 'lonely', details: { region: 'Nowhere', location: 'Shed', room: 'Corner' } };
    fleet = [...fleet, lonely];
    await syncDevices(fixed(() => fleet));
    fleet = fleet.filter((d) => d !== lonely);
    expect(await syncDevices(fixed(() => fleet))).toMatchObject({ full: false, removed: 1 });
    await expectStoreToBe(fleet);
  });

  it('syncs back a device a refresh stored in a state the provider reverted', async () => {
    const fleet = fleetOf(24);
    let live = fleet;
    await syncDevices(fixed(() => live));
    const target = fleet[11]!;
    live = fleet.map((d) => (d === target ? flip(d) : d));
    await refreshDevice(fixed(() => live), target.devicesn);
    live = fleet; // the provider reverts; its fingerprints equal the ones the last sync wrote
    expect(await syncDevices(fixed(() => live))).toMatchObject({ upserted: 1 });
    await expectStoreToBe(fleet);
  });

  it('removes the copy a refresh cut short between its write and its removal left in the old room', async () => {
    let fleet = fleetOf(32);
    await syncDevices(fixed(() => fleet));
    const moved = fleet[4]!;
    const target = fleet.find((d) => roomKey(d.details) !== roomKey(moved.details))!.details;
    fleet = fleet.map((d) => (d === moved ? { ...d, details: target } : d));
    // the refresh stored the device in its new room, then died before removing the old item
    await devices.put({ ...moved, details: target });
    expect((await devices.index()).filter((d) => d.devicesn === moved.devicesn)).toHaveLength(2);
    await syncDevices(fixed(() => fleet));
    await expectStoreToBe(fleet);
    // and a full sync, which reads every copy, heals it too
    await devices.put({ ...moved, details: moved.details });
    vi.stubEnv('SYNC_FULL_SECONDS', '0');
    expect(await syncDevices(fixed(() => fleet))).toMatchObject({ full: true });
    await expectStoreToBe(fleet);
  });

  it('removes a device another writer (the alarm engine) wrote back after the sync removed it', async () => {
    let fleet = fleetOf(25);
    await syncDevices(fixed(() => fleet));
    const gone = fleet.find((d) => fleet.filter((o) => roomKey(o.details) === roomKey(d.details)).length === 1)!;
    fleet = fleet.filter((d) => d !== gone);
    await syncDevices(fixed(() => fleet));
    await devices.writeAll([{ ...gone, alarmSeverity: 2 }], []); // a whole-item write from an older queue entry
    expect(await syncDevices(fixed(() => fleet))).toMatchObject({ removed: 1 });
    await expectStoreToBe(fleet);
  });

  it('marks a room whose identity fills a whole sort key (1,024 bytes) as the sync stores it', async () => {
    const place = { region: 'Edge', location: 'Limit', room: 'a'.repeat(1024 - 'Edge#Limit#'.length) };
    expect(Buffer.byteLength(roomId(place))).toBe(1024);
    const edge: ProviderDevice = { ...fleetOf(31)[0]!, devicesn: 'edge-1', deviceid: 'edge-1', details: place };
    const fleet = [...fleetOf(31), edge];
    let live = fleet;
    await syncDevices(fixed(() => live));
    // the room's aggregate fits; the refresh's marks of that room must fit too
    live = fleet.map((d) => (d === edge ? flip(d) : d));
    await expect(refreshDevice(fixed(() => live), edge.devicesn)).resolves.toMatchObject({ devicesn: 'edge-1' });
    expect([...(await syncFingerprints.dirtyRooms()).keys()]).toEqual([roomId(place)]);
    live = fleet;
    expect(await syncDevices(fixed(() => live))).toMatchObject({ full: false, roomsRead: 1, upserted: 1 });
    expect(await syncFingerprints.dirtyRooms()).toEqual(new Map());
    await expectStoreToBe(fleet);
  });

  it('compares a room another writer marked once, and keeps a mark renewed after the sync read it', async () => {
    const fleet = fleetOf(29);
    await syncDevices(fixed(() => fleet));
    const target = fleet[6]!;
    await devices.put(target); // a refresh that found nothing new still marks its room
    expect(await syncDevices(fixed(() => fleet))).toMatchObject({ full: false, roomsRead: 1, upserted: 0 });
    expect(await syncDevices(fixed(() => fleet))).toMatchObject({ full: false, roomsRead: 0 });
    // a writer marks again after a sync read the marks: the sync's clean-up leaves the new mark
    await devices.put(target);
    const read = await syncFingerprints.dirtyRooms();
    await devices.put(target);
    await syncFingerprints.clearDirty(read);
    expect([...(await syncFingerprints.dirtyRooms()).keys()]).toEqual([roomId(target.details)]);
    expect(await syncDevices(fixed(() => fleet))).toMatchObject({ full: false, roomsRead: 1 });
    expect(await syncFingerprints.dirtyRooms()).toEqual(new Map());
  });

  it('recounts a room it compares whose aggregate drifted (a run cut short before its recount)', async () => {
    const fleet = fleetOf(28);
    await syncDevices(fixed(() => fleet));
    const target = fleet[4]!;
    const stored = (await rooms.items([target.details]))[0]!;
    // a refresh stored the device and died before recounting its room: the aggregate is off by one
    await rooms.write({ ...stored.aggregate, online: stored.aggregate.online + 1, offline: stored.aggregate.offline - 1 }, stored.severities ?? { 1: 0, 2: 0, 3: 0, 4: 0 }, stored.version, false);
    await devices.put(target);
    expect(await syncDevices(fixed(() => fleet))).toMatchObject({ full: false, roomsRead: 1, upserted: 0, roomsRecomputed: 1 });
    await expectStoreToBe(fleet);
  });

  it('converges when refreshes run while a sync runs', async () => {
    const fleet = fleetOf(26);
    await syncDevices(fixed(() => fleet));
    const changed = fleet.map((d, i) => (i % 7 === 0 ? flip(d) : d));
    let live = changed;
    // the provider answers the sync the new states, the refreshes the old ones, at once
    const refreshes = fleet.filter((_, i) => i % 7 === 0).slice(0, 10);
    await Promise.all([
      syncDevices(fixed(() => changed)),
      ...refreshes.map((d) => refreshDevice(fixed(() => fleet), d.devicesn)),
    ]);
    live = changed;
    await syncDevices(fixed(() => live));
    await expectStoreToBe(live);
  });

  it('a change written past the fingerprints (straight into the table) is healed by the periodic full sync', async () => {
    const fleet = fleetOf(27);
    await syncDevices(fixed(() => fleet));
    const victim = fleet[2]!;
    const { Item } = { Item: DeviceEntity.key(victim) };
    await doc.send(new PutCommand({ TableName: tableName(), Item: { ...Item, GSI1PK: deviceIndexPk(victim.devicesn), GSI1SK: 'DEVICE', type: 'Device', ...victim, devicemodel: 'tampered', connected: victim.status.connected, inCallStatus: victim.status.inCallStatus, ...victim.details } }));
    expect(await syncDevices(fixed(() => fleet))).toMatchObject({ full: false, upserted: 0 });
    vi.stubEnv('SYNC_FULL_SECONDS', '0');
    expect(await syncDevices(fixed(() => fleet))).toMatchObject({ full: true, upserted: 1 });
    await expectStoreToBe(fleet);
  });
});

describe('a sync killed with SIGKILL', () => {
  const killedSync = async (haltAt: 'devices' | 'fingerprints', seed: number, offline: boolean) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/sync-child.ts'], {
      cwd: root,
      env: { ...process.env, HALT_AT: haltAt, SYNC_CHILD_SEED: String(seed), SYNC_CHILD_DEVICES: '200', SYNC_CHILD_OFFLINE: offline ? '1' : '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((halted, failed) => {
      child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('HALTED') && halted());
      child.once('exit', (code) => failed(new Error(`the sync exited (${code}) before the point it should halt at`)));
    });
    child.kill('SIGKILL');
  };

  it.each(['devices', 'fingerprints'] as const)('at its %s leaves a store the next sync heals, claiming nothing it did not store', async (haltAt) => {
    const fleet = fleetOf(30);
    await syncDevices(fixed(() => fleet));
    // the killed run was taking every device offline
    await killedSync(haltAt, 30, true);
    expect(await syncDevices(fixed(() => fleet))).toMatchObject({ full: false });
    await expectStoreToBe(fleet);
    expect(await syncDevices(fixed(() => fleet))).toMatchObject({ roomsRead: 0, upserted: 0 });
  }, 60_000);
});
