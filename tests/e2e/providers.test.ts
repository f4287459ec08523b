import { describe, expect, it } from 'vitest';
import type { ProvidersReport } from '#lib/inventory/providerReport';
import type { Device } from '#lib/devices/types';
import { instanceOn } from '../support/instance';
import { startVendorFakes } from '../../scripts/local/fakes/index';
import { noFaults } from '../../scripts/local/fakes/server';
import { api, callerOf } from '../support/api';
import { fleetOf } from '../support/vendors';

/*
 * A private `npm start` whose devices come from Webex and Zoom through the real adapters and the
 * fakes this test runs and controls (DEVICE_PROVIDERS=webex,zoom), synced every 2 s by npm start's
 * own loop: GET /providers, a device of each vendor through the spec's device endpoints, and one
 * vendor failing while its devices stay in place.
 */
const KEY = 'providers-e2e-api-key';
const fleet = fleetOf(42, 60, 16);
const own = instanceOn(
  '.esbuild-e2e-providers',
  () => startVendorFakes(() => fleet),
  (fakes) => ({ API_KEY: KEY, ...fakes.env, SYNC_INTERVAL_SECONDS: '2', EVALUATE_INTERVAL_SECONDS: '0', DEMO_WATCHER: '0', PASSWORD_SCRYPT_LOG_N: '14' }),
  700_000,
);

const call = callerOf(() => own.instance.url, KEY);
const providers = async () => (await call<ProvidersReport>('GET', '/providers')).body;
const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
};
const all = { regionName: 'all', locationName: 'all', roomName: 'all' };

describe('Webex and Zoom at once (npm start through the vendor fakes)', () => {
  it('GET /providers shows both vendors synced: devices, requests, no error', async () => {
    const report = await providers();
    expect(report.configured).toEqual(['webex', 'zoom']);
    expect(report.message).toBeUndefined();
    const byName = new Map(report.providers.map((p) => [p.name, p]));
    expect(byName.get('webex')).toMatchObject({ configured: true, lastError: null, failingSince: null, stale: false, heldRemovals: null, skipped: { personal: 2, noSerial: 1 } });
    expect(byName.get('zoom')).toMatchObject({ configured: true, lastError: null, skipped: { noSerial: 1 } });
    expect(byName.get('webex')!.devices + byName.get('zoom')!.devices).toBe(fleet.length);
    expect(byName.get('zoom')!.requests).toBeGreaterThan(1);
    expect(byName.get('webex')!.lastSuccessAt).not.toBeNull();
  });

  it('answers a device of each vendor through the spec\'s device endpoints, with its vendor and facts', async () => {
    const devices = (await call<Device[]>('POST', '/videoDevice/all/allDevices', all)).body;
    expect(devices).toHaveLength(fleet.length);
    for (const vendor of ['webex', 'zoom']) {
      const one = devices.find((d) => d.vendor === vendor)!;
      const got = await call<Device>('POST', `/videoDevice/${one.devicesn}`);
      expect(got.status).toBe(200);
      const source = fleet.find((d) => d.devicesn === one.devicesn)!;
      expect(got.body).toMatchObject({ devicesn: source.devicesn, details: source.details, deviceconnected: source.status.connected, vendor });
      expect(got.body.vendorDetails?.connectionDetail).toBeDefined();
      const refreshed = await call<Device & { refreshInfo: { lastRefresh: string } }>('POST', `/videoDevice/refresh/${one.devicesn}`);
      expect(refreshed.status).toBe(200);
      expect(refreshed.body).toMatchObject({ devicesn: source.devicesn, vendor, details: source.details });
    }
  });

  it('a vendor answering 500 keeps its devices in place and shows the failure in GET /providers', async () => {
    const before = (await call<number[]>('POST', '/videoDevice/all/totalDevices', all)).body;
    Object.assign(own.needs.zoom.faults, noFaults(), { down: 500 });
    try {
      const report = await until(providers, (r) => r.providers.some((p) => p.name === 'zoom' && p.lastError !== null));
      const zoom = report.providers.find((p) => p.name === 'zoom')!;
      expect(zoom.lastError?.message).toMatch(/answered 500/);
      expect(zoom.lastError?.trackingId).toMatch(/^FAKE_/);
      expect(zoom.failingSince).not.toBeNull();
      expect(JSON.stringify(report)).not.toMatch(/fake-zoom-secret|fake-webex-secret|fake-webex-refresh/);
      expect(report.providers.find((p) => p.name === 'webex')!.failingSince).toBeNull();
      expect((await call<number[]>('POST', '/videoDevice/all/totalDevices', all)).body).toEqual(before);
    } finally {
      Object.assign(own.needs.zoom.faults, noFaults(), { retryAfterSeconds: null });
    }
    const recovered = await until(providers, (r) => r.providers.find((p) => p.name === 'zoom')!.failingSince === null);
    expect(recovered.providers.find((p) => p.name === 'zoom')!.failingSince).toBeNull();
  });

  it('a 450 KB software set through a fake\'s control path is cut and counted; every other device keeps syncing', async () => {
    const devices = (await call<Device[]>('POST', '/videoDevice/all/allDevices', all)).body;
    const big = devices.find((d) => d.vendor === 'webex')!;
    const flipped = devices.find((d) => d.vendor === 'zoom' && d.deviceconnected)!;
    const set = async (url: string, serial: string, fields: Record<string, unknown>) =>
      expect((await fetch(`${url}/_fake/devices/${encodeURIComponent(serial)}`, { method: 'POST', body: JSON.stringify(fields) })).status).toBe(200);
    await set(own.needs.webex.url, big.devicesn, { software: 'R'.repeat(450 * 1024) });
    await set(own.needs.zoom.url, flipped.devicesn, { connected: false, location: 'all' });
    // a fault the fake does not take is refused, and npm start goes on
    expect((await fetch(`${own.needs.zoom.url}/_fake/faults`, { method: 'POST', body: '{"down":"abc"}' })).status).toBe(400);
    const counted = (r: ProvidersReport) =>
      r.providers.some((p) => p.name === 'zoom' && p.adjusted['renamed:details.location'] === 1) &&
      r.providers.some((p) => p.name === 'webex' && p.adjusted['truncated:vendorDetails.software'] === 1);
    const report = await until(providers, counted);
    expect(report.providers.map((p) => [p.name, p.failingSince, p.adjusted])).toEqual([
      ['webex', null, { 'truncated:vendorDetails.software': 1 }],
      ['zoom', null, { 'renamed:details.location': 1 }],
    ]);
    const cut = (await call<Device>('POST', `/videoDevice/${big.devicesn}`)).body;
    expect(cut.vendorDetails?.software).toHaveLength(256);
    const moved = (await call<Device>('POST', `/videoDevice/${flipped.devicesn}`)).body;
    expect(moved).toMatchObject({ deviceconnected: false, details: { location: 'all (zoom)' } });
    expect((await call<number[]>('POST', '/videoDevice/all/totalDevices', all)).body).toEqual([fleet.length]);
  });
});

describe('GET /providers on the shared instance (DEVICE_PROVIDER=simulated)', () => {
  it('names the simulated provider and its devices', async () => {
    const res = await api<ProvidersReport>('GET', '/providers');
    expect(res.status).toBe(200);
    expect(res.body.configured).toEqual(['simulated']);
    expect(res.body.providers[0]).toMatchObject({ name: 'simulated', devices: 240, lastError: null });
  });
});
