import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '#lib/devices/repository/devices';
import type { ProviderDevice } from '#lib/devices/types';
import { applyConnectivity, providersReport } from '#lib/inventory';
import type { DeviceProvider, NamedProvider } from '#lib/inventory/provider/index';
import * as polls from '#lib/inventory/repository/statusPolls';
import { pollAlone, pollStatuses } from '#lib/inventory/statusPoll';
import { syncDevices } from '#lib/inventory/sync';
import * as rooms from '#lib/rollups/repository/rooms';
import { LEASE_MS } from '#lib/shared/lease';
import { syncRuns } from '#lib/store/leases';
import * as watchers from '#lib/watchers/repository';
import { zoomRegionMap } from '../../scripts/local/fakes/fleet';
import type { ZoomFake } from '../../scripts/local/fakes/zoom';
import { firing, run } from '../support/engine';
import { device, fixed, offlineWatcher, unique } from '../support/fleet';
import { zoomAdapter, zoomFake } from '../support/vendors';

// Status polls against DynamoDB Local, the queue pass of the alarm engine run in process: a poll
// writes only connectivity, and it is the sweep that repairs what pushed events missed.

const iso = (ms: number) => new Date(ms).toISOString();

/** A vendor whose status filter answers `offline()`; its listing is the fleet (the sync's). */
const vendor = (fleet: () => ProviderDevice[], offline: () => string[]): DeviceProvider => ({
  ...fixed(fleet),
  pollStatus: async (_held, meter) => {
    if (meter) meter.requests += 1;
    return { notConnected: new Set(offline()) };
  },
});

const watched = async (region: string) => watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`, { sendEmail: false, emails: [] }));

describe('status poll', () => {
  it('writes what differs and only connectivity: a device off, one back on; others untouched', async () => {
    const region = unique('POLL');
    const fleet = [device(region, `${region}-1`, 'A', true), device(region, `${region}-2`, 'A', false), device(region, `${region}-3`, 'B', true)];
    await syncDevices(fixed(() => fleet));
    const [one, two, three] = fleet.map((d) => d.devicesn) as [string, string, string];
    const before = await devices.current(one);
    // the vendor now: 1 off, 2 back on (3 unchanged); a serial number we do not hold changes nothing
    const providers: NamedProvider[] = [{ name: 'simulated', provider: vendor(() => fleet, () => [one, 'NOT-OURS-1']) }];

    const result = await pollStatuses(providers, { within: { region } });

    expect(result.providers).toEqual([{ name: 'simulated', ok: true, requests: 1, observed: 2, applied: 2 }]);
    const after = await devices.current(one);
    expect(after.status.connected).toBe(false);
    // nothing but connectivity changed: the sync's fields stay as they were
    expect({ ...after, status: before.status }).toMatchObject({ ...before, status: before.status });
    expect(after.devicemodel).toBe(before.devicemodel);
    expect((await devices.current(two)).status.connected).toBe(true);
    expect((await devices.current(three)).status.connected).toBe(true);
    expect(await rooms.read(fleet[0]!.details)).toMatchObject({ aggregate: { online: 1, offline: 1 } });
    const counted = (await polls.counts()).find((c) => c.vendor === 'simulated')!;
    expect(counted.count).toBeGreaterThanOrEqual(1);
    expect(counted.lastAt).not.toBeNull();
    // GET /providers reports them, their cost in vendor requests too
    const reported = (await providersReport()).providers.find((p) => p.name === 'simulated')!;
    expect(reported.statusPolls).toMatchObject({ lastRequests: 1, lastError: null });
    expect(reported.statusPolls!.requests).toBeGreaterThanOrEqual(1);
    expect(reported.statusPolls!.changes).toBeGreaterThanOrEqual(2);

    // the same answer again: nothing differs, nothing is written
    expect((await pollStatuses(providers, { within: { region } })).providers[0]).toMatchObject({ observed: 0, applied: 0 });
  }, 60_000);

  it('never rewinds a pushed event newer than the poll', async () => {
    const region = unique('POLL');
    const fleet = [device(region, `${region}-1`, 'A', true)];
    await syncDevices(fixed(() => fleet));
    const sn = fleet[0]!.devicesn;
    // the vendor's filter still lists it off; an event after the poll's question says it is back
    const providers: NamedProvider[] = [
      {
        name: 'simulated',
        provider: {
          ...fixed(() => fleet),
          pollStatus: async () => {
            await applyConnectivity([{ devicesn: sn, connected: true, at: iso(Date.now() + 60_000), source: 'event' }]);
            return { notConnected: new Set([sn]) };
          },
        },
      },
    ];
    const result = await pollStatuses(providers, { within: { region } });
    expect(result.providers[0]).toMatchObject({ observed: 1, applied: 0 });
    expect((await devices.current(sn)).status.connected).toBe(true);
  }, 60_000);

  it('a failed poll changes nothing and is counted', async () => {
    const region = unique('POLL');
    const fleet = [device(region, `${region}-1`, 'A', false)];
    await syncDevices(fixed(() => fleet));
    const failing: NamedProvider[] = [{ name: 'http', provider: { ...fixed(() => fleet), pollStatus: async () => Promise.reject(new Error('vendor down')) } }];
    const result = await pollStatuses(failing, { within: { region } });
    expect(result.providers[0]).toMatchObject({ ok: false, error: 'vendor down' });
    expect((await devices.current(fleet[0]!.devicesn)).status.connected).toBe(false);
    expect((await polls.counts()).find((c) => c.vendor === 'http')).toMatchObject({ lastError: 'vendor down' });
  }, 60_000);

  it('does not run beside a sync (it shares the sync lease)', async () => {
    const now = Date.now();
    const runId = unique('held-by-a-sync');
    if (!(await syncRuns.acquire(runId, now, now + LEASE_MS))) return; // another test's sync holds it: nothing to show here
    try {
      const providers: NamedProvider[] = [{ name: 'simulated', provider: vendor(() => [], () => []) }];
      expect(await pollAlone(providers, { within: { region: unique('NONE') } })).toEqual({ ran: false, reason: 'busy' });
    } finally {
      await syncRuns.release(runId, undefined);
    }
  });
});

describe('the sweep: the next status poll repairs what pushed events missed', () => {
  // the Zoom adapter against its fake, one device a room (a room is Offline exactly when its device is)
  const region = unique('SWEEP');
  const fleet = [1, 2, 3].map((n) => device(region, `${region}-${n}`, `Room ${n}`, true));
  let fake: ZoomFake;
  let zoom: DeviceProvider;
  beforeAll(async () => {
    fake = await zoomFake(() => fleet, { extras: false });
    zoom = zoomAdapter(fake.url, { regions: new Map(Object.entries(zoomRegionMap(fleet))) });
    await syncDevices(zoom);
  });
  afterAll(() => fake.close());
  const providers = (): NamedProvider[] => [{ name: 'zoom', provider: zoom }];
  const poll = () => pollStatuses(providers(), { within: { region } });
  const switchTo = async (serial: string, connected: boolean | undefined) => {
    const path = `${fake.url}/_fake/devices/${encodeURIComponent(serial)}`;
    const answer = connected === undefined ? await fetch(path, { method: 'DELETE' }) : await fetch(path, { method: 'POST', body: JSON.stringify({ connected }) });
    expect(answer.status).toBe(200);
  };

  it('a dropped cleared event: the alarm clears at the next poll once the vendor says the device is healthy', async () => {
    const watcherId = await watched(region);
    await run();
    const sn = fleet[0]!.devicesn;
    // the alert arrived (applied as the receiver applies it), the device went off at the vendor;
    // its time is after the sync's listing, which is the device's observation until then
    await switchTo(sn, false);
    expect((await applyConnectivity([{ devicesn: sn, connected: false, at: iso(Date.now()), source: 'event' }])).applied).toEqual([sn]);
    await run();
    expect((await firing(watcherId)).map((alarm) => alarm.devicesn)).toEqual([sn]);
    // back at the vendor; its cleared event is dropped: nothing tells us but the poll
    await switchTo(sn, undefined);
    expect((await poll()).providers[0]).toMatchObject({ ok: true, applied: 1 });
    await run();
    expect(await firing(watcherId)).toEqual([]);
    expect((await devices.current(sn)).status.connected).toBe(true);
    await watchers.remove(watcherId);
  }, 60_000);

  it('a dropped alert (or a receiver that was down): the alarm fires at the next poll', async () => {
    const watcherId = await watched(region);
    await run();
    const sn = fleet[1]!.devicesn;
    await switchTo(sn, false);
    try {
      expect((await poll()).providers[0]).toMatchObject({ ok: true, applied: 1 });
      await run();
      expect((await firing(watcherId)).map((alarm) => alarm.devicesn)).toEqual([sn]);
    } finally {
      await switchTo(sn, undefined);
    }
    // and back: cleared by the poll after
    await poll();
    await run();
    expect(await firing(watcherId)).toEqual([]);
    await watchers.remove(watcherId);
  }, 60_000);
});
