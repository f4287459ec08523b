import { describe, expect, it } from 'vitest';
import type { ProvidersReport } from '#lib/inventory/providerReport';
import type { Device } from '#lib/devices/types';
import { instanceOn } from '../support/instance';
import { startVendorFakes } from '../../scripts/local/fakes/index';
import { splitFleet } from '../../scripts/local/fakes/fleet';
import { callerOf } from '../support/api';
import { fleetOf } from '../support/vendors';

/*
 * A private `npm start` with Webex and Zoom through the fakes, synced once at boot and then only
 * every hour: what a device switched off at its vendor becomes is the status poll's doing
 * (STATUS_POLL_SECONDS=1), Zoom's webhooks sending nowhere (a receiver that was down).
 */
const KEY = 'status-poll-e2e-api-key';
// one device a room: a Zoom room is Offline exactly when its device is
const fleet = fleetOf(43, 24, 24);
const own = instanceOn(
  '.esbuild-e2e-status-poll',
  () => startVendorFakes(() => fleet),
  (fakes) => ({ API_KEY: KEY, ...fakes.env, SYNC_INTERVAL_SECONDS: '3600', STATUS_POLL_SECONDS: '1', EVALUATE_INTERVAL_SECONDS: '0', DEMO_WATCHER: '0', PASSWORD_SCRYPT_LOG_N: '14' }),
  700_000,
);

const call = callerOf(() => own.instance.url, KEY);
const providers = async () => (await call<ProvidersReport>('GET', '/providers')).body;
const connected = async (sn: string) => (await call<Device>('POST', `/videoDevice/${sn}`)).body.deviceconnected;
const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
};
const control = (url: string, serial: string, connectedNow: boolean | undefined) =>
  fetch(`${url}/_fake/devices/${encodeURIComponent(serial)}`, connectedNow === undefined ? { method: 'DELETE' } : { method: 'POST', body: JSON.stringify({ connected: connectedNow }) });

describe('status polls under npm start (the vendor fakes, syncs an hour apart)', () => {
  it('polls each vendor, and GET /providers counts the polls and their requests', async () => {
    const report = await until(providers, (r) => ['webex', 'zoom'].every((name) => (r.providers.find((p) => p.name === name)?.statusPolls?.count ?? 0) > 0));
    for (const name of ['webex', 'zoom']) {
      const polls = report.providers.find((p) => p.name === name)!.statusPolls!;
      expect(polls).toMatchObject({ lastError: null });
      expect(polls.count).toBeGreaterThan(0);
      expect(polls.lastRequests).toBeGreaterThan(0);
    }
  });

  it('a device switched off at either vendor is disconnected by the next poll, and connected again after', async () => {
    const { webex, zoom } = splitFleet(fleet);
    const picks = [
      { url: own.needs.webex.url, sn: webex.find((d) => d.status.connected)!.devicesn },
      { url: own.needs.zoom.url, sn: zoom.find((d) => d.status.connected)!.devicesn },
    ];
    for (const { sn } of picks) expect(await connected(sn)).toBe(true);
    for (const { url, sn } of picks) expect((await control(url, sn, false)).status).toBe(200);
    for (const { sn } of picks) expect(await until(() => connected(sn), (value) => value === false)).toBe(false);
    // the poll counts what it wrote once its writes are done: read until it has
    const changed = (r: ProvidersReport) => ['webex', 'zoom'].every((name) => (r.providers.find((p) => p.name === name)?.statusPolls?.changes ?? 0) > 0);
    const report = await until(providers, changed);
    expect(changed(report), JSON.stringify(report.providers.map((p) => [p.name, p.statusPolls]))).toBe(true);
    for (const { url, sn } of picks) expect((await control(url, sn, undefined)).status).toBe(200);
    for (const { sn } of picks) expect(await until(() => connected(sn), (value) => value === true)).toBe(true);
  }, 180_000);
});
