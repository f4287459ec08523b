import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMeter, ProviderError } from '#lib/inventory/provider/index';
import { placeInTree } from '#lib/inventory/provider/zoom';
import { zoomRegionMap } from '../../scripts/local/fakes/fleet';
import type { ZoomFake } from '../../scripts/local/fakes/zoom';
import { expectFleetListed, fleetOf, resetFaults, zoomAdapter, zoomFake } from '../support/vendors';

// The Zoom Rooms adapter against the local Zoom fake: 80 devices in 40 rooms (pages of 30 rooms at least).
const fleet = fleetOf(32, 80, 40);
const regions = new Map(Object.entries(zoomRegionMap(fleet)));
let fake: ZoomFake;

beforeAll(async () => {
  fake = await zoomFake(() => fleet, { pageTokenTtlSeconds: 60 });
});
afterAll(() => fake.close());

const reset = () => resetFaults(fake, { retryAfterSeconds: null });

describe('Zoom Rooms adapter against the fake', () => {
  it('lists every room across next_page_token pages, each room\'s devices, placed by the tree levels', async () => {
    reset();
    const meter = newMeter();
    const devices = await zoomAdapter(fake.url, { pageSize: 30, regions }).listDevices(meter);
    expectFleetListed(devices, fleet, 'zoom');
    expect(meter.skipped).toEqual({ noSerial: 1 });
  });

  it('takes region and location from other levels of the tree when configured', async () => {
    reset();
    const devices = await zoomAdapter(fake.url, { regionLevel: 'city', locationLevel: 'building' }).listDevices();
    const source = fleet.find((d) => d.devicesn === devices[0]!.devicesn)!;
    expect(devices[0]!.details).toEqual({ region: source.details.location, location: `${source.details.location} HQ`, room: source.details.room });
  });

  it('marks the connected devices of a room InMeeting as in a call', async () => {
    reset();
    const devices = await zoomAdapter(fake.url, { regions }).listDevices();
    const active = devices.filter((d) => d.status.inCallStatus === 'ACTIVE');
    expect(active.length).toBeGreaterThan(0);
    expect(active.every((d) => d.status.connected)).toBe(true);
    const roomsInCall = new Set(fleet.filter((d) => d.status.connected && d.status.inCallStatus === 'ACTIVE').map((d) => JSON.stringify(d.details)));
    expect(new Set(active.map((d) => JSON.stringify(d.details)))).toEqual(roomsInCall);
  });

  it('renews its OAuth token before expiry and once after a 401', async () => {
    reset();
    const adapter = zoomAdapter(fake.url, { regions });
    await adapter.listDevices();
    const issued = fake.stats.tokensIssued;
    fake.expireTokens();
    expect(await adapter.listDevices()).toHaveLength(fleet.length);
    expect(fake.stats.tokensIssued).toBe(issued + 1);
    // a token in its last minutes is renewed before it is used
    let clock = Date.now();
    const early = zoomAdapter(fake.url, { regions, now: () => clock });
    await early.listDevices();
    clock += 56 * 60_000;
    const before = fake.stats.tokensIssued;
    await early.listDevices();
    expect(fake.stats.tokensIssued).toBe(before + 1);
  });

  it('restarts the room listing when its page token has outlived its lifetime', async () => {
    reset();
    let clock = Date.now();
    const meter = newMeter();
    // every page answer moves the adapter's clock past the token lifetime once
    let jumps = 1;
    const adapter = zoomAdapter(fake.url, { regions, pageSize: 30, pageTokenLifetimeMs: 60_000, now: () => clock });
    const listing = adapter.listDevices(meter);
    const timer = setInterval(() => {
      if (jumps > 0 && meter.requests >= 3) {
        clock += 61_000;
        jumps--;
      }
    }, 1);
    const devices = await listing.finally(() => clearInterval(timer));
    expect(devices).toHaveLength(fleet.length);
  });

  it('restarts the listing when the vendor refuses an expired page token', async () => {
    reset();
    const short = await zoomFake(() => fleet, { pageTokenTtlSeconds: 0 });
    try {
      short.faults.slowMs = 5;
      await expect(zoomAdapter(short.url, { regions, pageSize: 30 }).listDevices()).rejects.toThrow(/page token expired 4 times/);
    } finally {
      await short.close();
    }
  });

  it('backs off with jitter on 429 without Retry-After, then succeeds', async () => {
    reset();
    fake.faults.rate429 = 0.2;
    const meter = newMeter();
    expect(await zoomAdapter(fake.url, { regions }).listDevices(meter)).toHaveLength(fleet.length);
    expect(meter.throttledWaits).toBeGreaterThan(0);
  });

  it('fails when the vendor answers 5xx past its retries', async () => {
    reset();
    fake.faults.down = 502;
    await expect(zoomAdapter(fake.url, { regions }).listDevices()).rejects.toBeInstanceOf(ProviderError);
  });

  it('fails on refused credentials without naming them', async () => {
    reset();
    const adapter = zoomAdapter(fake.url, { credentials: async () => ({ accountId: 'fake-zoom-account', clientId: 'fake-zoom-client', clientSecret: 'wrong-secret' }) });
    const failure = adapter.listDevices();
    await expect(failure).rejects.toThrow(/token request answered 401/);
    await expect(failure).rejects.not.toThrow(/wrong-secret/);
  });

  it('refreshes one device from its room\'s devices and the room\'s status', async () => {
    reset();
    const adapter = zoomAdapter(fake.url, { regions });
    const listed = await adapter.listDevices();
    const inCall = listed.find((d) => d.status.inCallStatus === 'ACTIVE')!;
    const refreshed = await adapter.getDevice(inCall.devicesn, { ...inCall });
    expect(refreshed).toEqual(inCall);
  });

  it('finds the nearest ancestor of each level in the tree', () => {
    const tree = new Map([
      ['f', { name: 'Floor 2', parent: 'b', type: 'floor' }],
      ['b', { name: 'HQ', parent: 'c', type: 'building' }],
      ['c', { name: 'Madrid', parent: 'es', type: 'city' }],
      ['es', { name: 'Spain', type: 'country' }],
    ]);
    expect(placeInTree(tree, 'f', 'country', 'city')).toEqual({ region: 'Spain', location: 'Madrid' });
    expect(placeInTree(tree, 'f', 'country', 'campus')).toEqual({ region: 'Spain', location: undefined });
  });
});
