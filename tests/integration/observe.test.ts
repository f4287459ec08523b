import { describe, expect, it } from 'vitest';
import { evaluationQueue } from '#lib/alarms/repository/evaluationQueue';
import * as connectivity from '#lib/devices/repository/connectivity';
import { devices } from '#lib/devices/repository/devices';
import type { Place } from '#lib/devices/types';
import { applyConnectivity } from '#lib/inventory';
import type { DeviceProvider } from '#lib/inventory/provider/index';
import { refreshDevice } from '#lib/inventory/refresh';
import { syncDevices } from '#lib/inventory/sync';
import * as rooms from '#lib/rollups/repository/rooms';
import * as watchers from '#lib/watchers/repository';
import { run } from '../support/engine';
import { device, fixed, offlineWatcher, unique } from '../support/fleet';

// applyConnectivity: the one write path of pushed and polled connectivity, against DynamoDB Local.
const iso = (ms: number) => new Date(ms).toISOString();
const aggregateOf = async (place: Place) => (await rooms.read(place))?.aggregate;
const historyOf = async (sn: string) => (await connectivity.history(sn, '', iso(Date.now() + 3_600_000), 20)).items;
const queuedOf = async (sn: string) => (await evaluationQueue.list()).filter((entry) => entry.kind === 'device' && entry.devicesn === sn);

const room = async () => {
  const region = unique('R');
  const fleet = [device(region, `${region}-1`, 'A', true), device(region, `${region}-2`, 'A', true)];
  await syncDevices(fixed(() => fleet));
  return { region, fleet, place: fleet[0]!.details, sn: fleet[0]!.devicesn };
};

describe('applyConnectivity', () => {
  it('stores an observed disconnection: the device, its history, its room counts, and an evaluation that fires', async () => {
    const { region, place, sn } = await room();
    await watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`, { sendEmail: false, emails: [] }));
    await run();
    const at = iso(Date.now());

    expect(await applyConnectivity([{ devicesn: sn, connected: false, at, source: 'event' }])).toEqual({ applied: [sn], stale: [], unknown: [] });

    const stored = await devices.current(sn);
    expect(stored.status).toEqual({ connected: false, inCallStatus: 'NONE' });
    expect(stored.deviceid).toBe(`id-${sn}`);
    expect((await historyOf(sn))[0]).toEqual({ at, connected: false, inCallStatus: 'NONE' });
    expect(await aggregateOf(place)).toMatchObject({ deviceCount: 2, online: 1, offline: 1 });
    expect((await queuedOf(sn)).map((entry) => entry.kind === 'device' && entry.device?.status.connected)).toContain(false);
    await run();
    expect((await devices.current(sn)).alarmSeverity).toBe(2);
  }, 60_000);

  it('never rewinds a newer observation: an older one, or the same one again, is stale and changes nothing', async () => {
    const { place, sn } = await room();
    const now = Date.now();
    await applyConnectivity([{ devicesn: sn, connected: false, at: iso(now), source: 'event' }]);
    const history = await historyOf(sn);

    const late = await applyConnectivity([
      { devicesn: sn, connected: true, at: iso(now - 1000), source: 'event' },
      { devicesn: 'nobody-has-this-serial', connected: true, at: iso(now), source: 'poll' },
    ]);
    expect(late).toEqual({ applied: [], stale: [sn], unknown: ['nobody-has-this-serial'] });
    expect(await applyConnectivity([{ devicesn: sn, connected: false, at: iso(now), source: 'event' }])).toEqual({ applied: [], stale: [sn], unknown: [] });
    expect((await devices.current(sn)).status.connected).toBe(false);
    expect(await historyOf(sn)).toEqual(history);
    expect(await aggregateOf(place)).toMatchObject({ online: 1, offline: 1 });

    // a confirmation moves the device's time on: a contrary observation older than it is stale too
    await applyConnectivity([{ devicesn: sn, connected: false, at: iso(now + 5000), source: 'poll' }]);
    expect((await applyConnectivity([{ devicesn: sn, connected: true, at: iso(now + 4000), source: 'event' }])).stale).toEqual([sn]);
    expect((await devices.current(sn)).status.connected).toBe(false);

    // several at once are applied in their time order, whatever the order given: the newest stands
    const out = await applyConnectivity([
      { devicesn: sn, connected: false, at: iso(now + 9000), source: 'event' },
      { devicesn: sn, connected: true, at: iso(now + 8000), source: 'event' },
    ]);
    expect(out.applied).toEqual([sn]);
    expect((await devices.current(sn)).status.connected).toBe(false);
    expect((await historyOf(sn)).slice(0, 2).map((t) => [t.at, t.connected])).toEqual([
      [iso(now + 9000), false],
      [iso(now + 8000), true],
    ]);
  });

  it('leaves a device a refresh read after the observation as the refresh stored it', async () => {
    const { fleet, sn } = await room();
    const before = Date.now() - 1000;
    const provider: DeviceProvider = fixed(() => fleet);
    await refreshDevice(provider, sn);
    expect((await applyConnectivity([{ devicesn: sn, connected: false, at: iso(before), source: 'poll' }])).stale).toEqual([sn]);
    expect((await devices.current(sn)).status.connected).toBe(true);
  });

  it('leaves a device a sync listed after the observation as the sync stored it (a vendor retry minutes late rewinds nothing)', async () => {
    const { fleet, sn } = await room();
    const late = Date.now() - 20 * 60_000;
    // the sync writes the device (a changed field): its listing is the newer observation
    const moved = fleet.map((d) => (d.devicesn === sn ? { ...d, devicemodel: 'Room Kit Pro' } : d));
    await syncDevices(fixed(() => moved));
    expect((await applyConnectivity([{ devicesn: sn, connected: false, at: iso(late), source: 'event' }])).stale).toEqual([sn]);
    expect((await devices.current(sn)).status.connected).toBe(true);
    // one newer than the listing still applies
    expect((await applyConnectivity([{ devicesn: sn, connected: false, at: iso(Date.now() + 1000), source: 'event' }])).applied).toEqual([sn]);
  });
});
