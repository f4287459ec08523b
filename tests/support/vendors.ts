/** The vendor fakes (scripts/local/fakes) with a small known fleet, and the adapters pointed at them. */
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import { webexProvider } from '#lib/inventory/provider/webex';
import { zoomProvider } from '#lib/inventory/provider/zoom';
import { expect } from 'vitest';
import type { ProviderDevice } from '#lib/devices/types';
import { FAKE_CREDENTIALS } from '../../scripts/local/fakes/index';
import { noFaults, type Faults } from '../../scripts/local/fakes/server';
import { startWebexFake, type WebexFakeOptions } from '../../scripts/local/fakes/webex';
import { startZoomFake, type ZoomFakeOptions } from '../../scripts/local/fakes/zoom';

/** Fast retries for tests: backoff of a few ms, waits capped at 3 s. */
export const quickHttp = { backoffMs: 5, maxWaitMs: 3000, totalWaitMs: 20_000, timeoutMs: 5000 };

export const fleetOf = (seed: number, devices: number, rooms?: number): ProviderDevice[] => simulatedFleet({ seed, devices, rooms });

export const webexFake = (devices: () => readonly ProviderDevice[], options: Partial<WebexFakeOptions> = {}) =>
  startWebexFake({ devices, ...FAKE_CREDENTIALS.webex, ...options });

export const zoomFake = (devices: () => readonly ProviderDevice[], options: Partial<ZoomFakeOptions> = {}) =>
  startZoomFake({ devices, ...FAKE_CREDENTIALS.zoom, ...options });

export const webexAdapter = (url: string, options: Partial<Parameters<typeof webexProvider>[0]> = {}) =>
  webexProvider({ apiUrl: `${url}/v1`, credentials: async () => ({ ...FAKE_CREDENTIALS.webex }), http: quickHttp, ...options });

export const zoomAdapter = (url: string, options: Partial<Parameters<typeof zoomProvider>[0]> = {}) =>
  zoomProvider({ apiUrl: `${url}/v2`, oauthUrl: url, credentials: async () => ({ ...FAKE_CREDENTIALS.zoom }), http: quickHttp, ...options });

/** Back to a well-behaved vendor (Zoom sends no Retry-After: `retryAfterSeconds: null`). */
export const resetFaults = (fake: { faults: Faults }, overrides: Partial<Faults> = {}) => Object.assign(fake.faults, noFaults(), overrides);

/** An adapter listed exactly the fleet's devices, each placed and connected as in the fleet and named as `vendor`'s; `each` checks more of every device. */
export const expectFleetListed = (devices: readonly ProviderDevice[], fleet: readonly ProviderDevice[], vendor: string, each: (device: ProviderDevice) => void = () => {}) => {
  expect(devices.map((d) => d.devicesn).sort()).toEqual(fleet.map((d) => d.devicesn).sort());
  for (const device of devices) {
    const source = fleet.find((d) => d.devicesn === device.devicesn)!;
    expect(device.details).toEqual(source.details);
    expect(device.status.connected).toBe(source.status.connected);
    expect(device.vendor).toBe(vendor);
    each(device);
  }
};
