import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newMeter, ProviderError } from '#lib/inventory/provider/index';
import { nextLink } from '#lib/inventory/provider/webex';
import { logger } from '#lib/shared/log';
import type { WebexFake } from '../../scripts/local/fakes/webex';
import { expectFleetListed, fleetOf, resetFaults, webexAdapter, webexFake } from '../support/vendors';

// The Webex adapter against the local Webex fake: 60 devices in 15 workspaces.
const fleet = fleetOf(31, 60, 15);
let fake: WebexFake;

beforeAll(async () => {
  fake = await webexFake(() => fleet);
});
afterAll(() => fake.close());

const reset = () => resetFaults(fake);

describe('Webex adapter against the fake', () => {
  it('lists every device across several Link pages, placed by workspace and location, region by country', async () => {
    reset();
    const meter = newMeter();
    const devices = await webexAdapter(fake.url, { pageSize: 7 }).listDevices(meter);
    expectFleetListed(devices, fleet, 'webex', (device) => expect(device.vendorDetails?.connectionDetail).toMatch(/connected|disconnected|offline_expired/));
    // 61 device records + 3 extras = 10 pages of 7, plus the workspace and location listings and one token
    expect(meter.requests).toBeGreaterThanOrEqual(10);
    expect(meter.skipped).toEqual({ personal: 2, noSerial: 1 });
  });

  it('keeps connected_with_issues, error codes, software and planned maintenance in either documented shape', async () => {
    reset();
    const devices = await webexAdapter(fake.url).listDevices();
    const withIssues = devices.find((d) => d.vendorDetails?.connectionDetail === 'connected_with_issues');
    expect(withIssues?.status.connected).toBe(true);
    expect(withIssues?.vendorDetails?.errorCodes).toEqual(['sipprofileregistration']);
    expect(devices.every((d) => d.vendorDetails?.software?.startsWith('RoomOS'))).toBe(true);
    expect(new Set(devices.map((d) => d.vendorDetails?.plannedMaintenance))).toEqual(new Set(['off', 'upcoming']));
    // the listing says nothing of calls: a connected device's call state is left to the stored one
    expect(devices.filter((d) => !d.status.connected).every((d) => d.status.inCallStatus === 'NONE' && d.vendorDetails?.lastSeen)).toBe(true);
  });

  it('renews an expired token once and goes on', async () => {
    reset();
    const adapter = webexAdapter(fake.url);
    await adapter.listDevices();
    const issued = fake.stats.tokensIssued;
    fake.expireTokens();
    expect(await adapter.listDevices()).toHaveLength(fleet.length);
    expect(fake.stats.tokensIssued).toBe(issued + 1);
  });

  it('waits out a 429 with Retry-After, then succeeds', async () => {
    reset();
    fake.faults.rate429 = 0.3;
    fake.faults.retryAfterSeconds = 0;
    const meter = newMeter();
    const devices = await webexAdapter(fake.url, { pageSize: 10 }).listDevices(meter);
    expect(devices).toHaveLength(fleet.length);
    expect(meter.throttledWaits).toBeGreaterThan(0);
  });

  it('rides out a short 5xx burst', async () => {
    reset();
    fake.faults.burst5xx = 2;
    expect(await webexAdapter(fake.url).listDevices()).toHaveLength(fleet.length);
  });

  it('fails, with the tracking id and without the token, when the vendor stays down', async () => {
    reset();
    fake.faults.down = 500;
    const warn = vi.spyOn(logger, 'warn');
    const failure = webexAdapter(fake.url).listDevices();
    await expect(failure).rejects.toBeInstanceOf(ProviderError);
    await expect(failure).rejects.toThrow(/tracking id FAKE_/);
    const line = JSON.stringify(warn.mock.calls);
    expect(line).toContain('FAKE_');
    expect(line).not.toMatch(/fake-webex-[0-9a-f-]{36}|fake-webex-secret|fake-webex-refresh/);
    warn.mockRestore();
  });

  it('gives up on pages slower than its timeout, and waits for slow pages within it', async () => {
    reset();
    fake.faults.slowMs = 150;
    await expect(webexAdapter(fake.url, { http: { timeoutMs: 50, attempts: 2, backoffMs: 1 } }).listDevices()).rejects.toThrow(/unreachable \(TimeoutError\)/);
    expect(await webexAdapter(fake.url, { http: { timeoutMs: 2000 } }).listDevices()).toHaveLength(fleet.length);
  });

  it('fails rather than wait a Retry-After over its cap', async () => {
    reset();
    fake.faults.rate429 = 1;
    fake.faults.retryAfterSeconds = 120;
    await expect(webexAdapter(fake.url).listDevices()).rejects.toThrow(/over the cap/);
  });

  it('fails when the request budget of a sync is spent', async () => {
    reset();
    await expect(webexAdapter(fake.url, { pageSize: 5, http: { budget: 4 } }).listDevices(newMeter())).rejects.toThrow(/budget/);
  });

  it('holds a malformed record by its serial number and counts it', async () => {
    reset();
    fake.faults.malformedPage = 0;
    const meter = newMeter();
    const devices = await webexAdapter(fake.url, { pageSize: 20 }).listDevices(meter);
    expect(devices).toHaveLength(fleet.length - 1);
    expect(meter.skipped.malformed).toBe(1);
    expect(meter.unreadable).toHaveLength(1);
  });

  it('refreshes one device with its call state from xAPI', async () => {
    reset();
    const inCall = fleet.find((d) => d.status.connected && d.status.inCallStatus === 'ACTIVE')!;
    const device = await webexAdapter(fake.url).getDevice(inCall.devicesn);
    expect(device).toMatchObject({ devicesn: inCall.devicesn, status: { connected: true, inCallStatus: 'ACTIVE' }, details: inCall.details });
    expect(await webexAdapter(fake.url).getDevice('NOPE')).toBeUndefined();
  });

  it('reads a Link header with several relations and follows a relative next', () => {
    expect(nextLink('<https://x/v1/devices?max=2&start=0>; rel="first", <https://x/v1/devices?start=2>; rel="next"', 'https://x/v1/devices')).toBe('https://x/v1/devices?start=2');
    expect(nextLink('</v1/d?start=4>; rel=next', 'https://x/v1/d?max=2')).toBe('https://x/v1/d?start=4');
    expect(nextLink('<https://x/v1/d?start=0>; rel="first"', 'https://x/v1/d')).toBeUndefined();
  });
});
