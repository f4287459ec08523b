import { describe, expect, it } from 'vitest';
import type { Device } from '#lib/devices/types';
import { instanceOn } from '../support/instance';
import { startVendorFakes } from '../../scripts/local/fakes/index';
import { callerOf } from '../support/api';
import { fleetOf } from '../support/vendors';

/*
 * A private `npm start` with Webex and Zoom through their fakes, synced once an hour
 * (SYNC_INTERVAL_SECONDS=3600): a Zoom device switched off through its fake's control path is
 * offline in GET /videoDevice/<serial> by the fake's signed webhook alone, no sync in between.
 */
const KEY = 'zoom-push-e2e-api-key';
const fleet = fleetOf(43, 24, 8);
const own = instanceOn(
  '.esbuild-e2e-zoom-push',
  () => startVendorFakes(() => fleet),
  (fakes) => ({ API_KEY: KEY, ...fakes.env, SYNC_INTERVAL_SECONDS: '3600', EVALUATE_INTERVAL_SECONDS: '0', DEMO_WATCHER: '0', PASSWORD_SCRYPT_LOG_N: '14' }),
  700_000,
);

const call = callerOf(() => own.instance.url, KEY);
const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};
const all = { regionName: 'all', locationName: 'all', roomName: 'all' };

describe('a Zoom device switched off at its vendor (npm start, hourly syncs)', () => {
  it('is connected: false in GET /videoDevice/<serial> through the pushed event alone', async () => {
    const devices = await until(
      async () => (await call<Device[]>('POST', '/videoDevice/all/allDevices', all)).body,
      (listed) => Array.isArray(listed) && listed.length === fleet.length,
    );
    expect(devices).toHaveLength(fleet.length);
    const target = devices.find((d) => d.vendor === 'zoom' && d.deviceconnected)!;
    own.needs.zoom.setWebhook({ url: `${own.instance.url}/vendors/zoom/events`, secret: own.needs.env.ZOOM_WEBHOOK_SECRET_TOKEN ?? '' });
    const switched = await fetch(`${own.needs.zoom.url}/_fake/devices/${encodeURIComponent(target.devicesn)}`, { method: 'POST', body: JSON.stringify({ connected: false }) });
    expect(switched.status).toBe(200);
    const after = await until(
      async () => (await call<Device>('POST', `/videoDevice/${target.devicesn}`)).body,
      (device) => device.deviceconnected === false,
    );
    expect(after).toMatchObject({ devicesn: target.devicesn, deviceconnected: false, status: { connected: false } });
    // no sync ran meanwhile: the change came by the fake's webhook (counted once its 200 is back)
    expect(await until(async () => own.needs.zoom.webhookStats.webhooksSent, (sent) => sent > 0)).toBeGreaterThan(0);
  });
});
