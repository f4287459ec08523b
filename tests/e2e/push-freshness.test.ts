import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device } from '#lib/devices/types';
import { providerFromEnv } from '#lib/inventory/provider/index';
import { FAKE_CREDENTIALS } from '../../scripts/local/fakes/index';
import { byRoom, idOf, splitFleet } from '../../scripts/local/fakes/fleet';
import { alertBody, signatureOf } from '../../scripts/local/fakes/zoomWebhooks';
import type { Instance } from '../../scripts/local/instance';
import { freePort } from '../../scripts/local/ports';
import { callerOf } from '../support/api';
import { watcherInput } from '../support/fleet';
import { ownInstance } from '../support/instance';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';

/*
 * Issue "Seconds, not minutes", its "Done when", over HTTP: a private `npm start` with its own
 * Webex and Zoom fakes (demo fleet of 40, still), SYNC_INTERVAL_SECONDS=3600 (no full sync after
 * the first) and no scheduled evaluation (EVALUATE_INTERVAL_SECONDS=0), so that whatever reaches
 * a device and a notification here went through a pushed event or a status poll and the prompt
 * evaluation they hand over to. A webhook channel points at a receiver on loopback; a watcher
 * raises Major on every disconnected device with no pending time. Devices are switched through
 * the fakes' control path (`POST /_fake/devices/<serial>`), faults through `POST /_fake/faults`.
 * No timed assertion: each wait has a generous bound and the assertions are on content and order.
 */
const KEY = 'push-freshness-e2e-api-key';
const SECRET = FAKE_CREDENTIALS.zoom.webhookSecretToken;
const POLL_SECONDS = 5;
const WAIT_MS = 90_000;
const env = { SEED_DEVICES: '40', SIM_SEED: '42', SIM_CHURN: '0' };

let receiver: WebhookReceiver;
let instance: Instance;
const fakes = { webex: '', zoom: '' };
let watcherId: string;

const call = callerOf(() => instance.url, KEY);
const device = async (serial: string) => (await call<Device>('POST', `/videoDevice/${encodeURIComponent(serial)}`)).body;
const control = async (vendor: 'webex' | 'zoom', path: string, body: unknown) => {
  const res = await fetch(`${fakes[vendor]}${path}`, { method: 'POST', body: JSON.stringify(body) });
  expect(res.status, await res.clone().text()).toBe(200);
};
const switchDevice = (vendor: 'webex' | 'zoom', serial: string, connected: boolean) => control(vendor, `/_fake/devices/${encodeURIComponent(serial)}`, { connected });
const webhookStats = async () => (await (await fetch(`${fakes.zoom}/_fake/webhook`)).json()) as { webhooksSent: number; webhooksDropped: number };
const zoomEvents = async () =>
  (await call<{ providers: { name: string; events?: { received: number; rejected: number } | null }[] }>('GET', '/providers')).body.providers.find((p) => p.name === 'zoom')?.events ?? { received: 0, rejected: 0 };
const until = async <T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = WAIT_MS): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};
/** The signed notifications of `type` naming `serial` that arrived after `from`. */
const notices = (type: string, serial: string, from: number) => receiver.naming(type, serial, from);

// the demo fleet as npm start's fakes serve it: a Zoom room whose computer is its only connected
// device (off, the room is Offline in the rooms list too), another connected Zoom computer, a connected Webex device
const fleetOf = async () => splitFleet(await providerFromEnv({ DEVICE_PROVIDER: 'simulated', ...env }).listDevices());
let lone: string;
let other: { serial: string; roomId: string; roomName: string };
let webexDevice: string;

beforeAll(async () => {
  const split = await fleetOf();
  const rooms = byRoom(split.zoom);
  const loneRoom = rooms.find((members) => members[0]!.status.connected && members.filter((d) => d.status.connected).length === 1);
  const otherRoom = rooms.find((members) => members !== loneRoom && members[0]!.status.connected);
  if (!loneRoom || !otherRoom) throw new Error('the demo fleet of 40 has no Zoom room this test needs');
  lone = loneRoom[0]!.devicesn;
  const { region, location, room } = otherRoom[0]!.details;
  other = { serial: otherRoom[0]!.devicesn, roomId: idOf('zr-', region, location, room), roomName: room };
  webexDevice = split.webex.find((d) => d.status.connected)!.devicesn;

  receiver = await startWebhookReceiver('/push-freshness');

  const ports = { webex: await freePort(), zoom: await freePort() };
  fakes.webex = `http://127.0.0.1:${ports.webex}`;
  fakes.zoom = `http://127.0.0.1:${ports.zoom}`;
  instance = await ownInstance('.esbuild-e2e-push', {
    API_KEY: KEY,
    // npm start's own fakes: no provider named
    DEVICE_PROVIDER: '',
    DEVICE_PROVIDERS: '',
    ...env,
    WEBEX_FAKE_PORT: String(ports.webex),
    ZOOM_FAKE_PORT: String(ports.zoom),
    SYNC_INTERVAL_SECONDS: '3600',
    STATUS_POLL_SECONDS: String(POLL_SECONDS),
    EVALUATE_INTERVAL_SECONDS: '0',
    REPORT_INTERVAL_SECONDS: '0',
    DEMO_WATCHER: '0',
    PASSWORD_SCRYPT_LOG_N: '14',
  });

  const channel = await call<{ id: string; secret: string }>('POST', '/channels', { name: 'push freshness', type: 'webhook', url: receiver.url, format: 'json' });
  expect(channel.status).toBe(201);
  receiver.state.secret = channel.body.secret;
  const created = await call<string>('POST', '/watcher', watcherInput({ description: 'device disconnected (push e2e)', channelIds: [channel.body.id], pendingSeconds: 0, flapping: false }));
  expect(created.status).toBe(200);
  watcherId = created.body;
  // the devices already disconnected raise their alarms now, before the tests change any
  expect((await call('POST', '/alarms/evaluate')).status).toBe(200);
}, 700_000);

afterAll(async () => {
  await instance?.stop();
  await receiver?.close();
});

describe('seconds, not minutes (npm start, SYNC_INTERVAL_SECONDS=3600, evaluation only when handed a change)', () => {
  it('starts with the devices this test switches connected, and its own fakes pushing to the receiver', async () => {
    for (const serial of [lone, other.serial, webexDevice]) expect((await device(serial)).deviceconnected).toBe(true);
    expect((await (await fetch(`${fakes.zoom}/_fake/webhook`)).json()) as { url: string }).toMatchObject({ url: `${instance.url}/vendors/zoom/events` });
  });

  it('refuses forged, unsigned and replayed events with a 401 naming why, and they change nothing', async () => {
    const before = await zoomEvents();
    const body = JSON.stringify(alertBody({ serial: other.serial, roomId: other.roomId, roomName: other.roomName, deviceType: 'Zoom Rooms Computer', online: false }, Date.now(), FAKE_CREDENTIALS.zoom.accountId));
    const now = String(Math.floor(Date.now() / 1000));
    const stale = String(Math.floor(Date.now() / 1000) - 10 * 60);
    const send = (headers: Record<string, string>) => fetch(`${instance.url}/vendors/zoom/events`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    const answers = [
      await send({ 'x-zm-request-timestamp': now, 'x-zm-signature': signatureOf('not-the-secret-token', now, body) }),
      await send({}),
      // signed with the right secret, ten minutes ago: a replay
      await send({ 'x-zm-request-timestamp': stale, 'x-zm-signature': signatureOf(SECRET, stale, body) }),
    ];
    const bodies = await Promise.all(answers.map(async (res) => ({ status: res.status, body: (await res.json()) as { message: string } })));
    expect(bodies.map((b) => b.status)).toEqual([401, 401, 401]);
    expect(bodies[0]!.body.message).toMatch(/signature/);
    expect(bodies[1]!.body.message).toMatch(/missing/);
    expect(bodies[2]!.body.message).toMatch(/minutes/);
    expect((await zoomEvents()).rejected).toBe(before.rejected + 3);
    expect((await zoomEvents()).received).toBe(before.received);
    expect((await device(other.serial)).deviceconnected).toBe(true);
  });

  it('a Zoom device switched off at the fake is connected: false and notified, from the pushed event alone', async () => {
    // Zoom's API is down meanwhile: no status poll can see the change, only the pushed event
    await control('zoom', '/_fake/faults', { down: 503 });
    try {
      const receivedBefore = (await zoomEvents()).received;
      const from = Date.now();
      await switchDevice('zoom', lone, false);
      const stored = await until(() => device(lone), (d) => d.deviceconnected === false);
      expect(stored.deviceconnected).toBe(false);
      const raised = await until(() => notices('alarms.raised', lone, from), (found) => found.length > 0);
      expect(raised).toHaveLength(1);
      expect(raised[0]).toMatchObject({ watcher: { id: watcherId, severity: 2 } });
      expect(raised[0]!.alarms.find((a) => a.devicesn === lone)).toMatchObject({ severity: 2 });
      // the receiver counted the event (the fake's own sent count waits for an answer within Zoom's 3 s, which a cold local function may miss)
      expect((await zoomEvents()).received).toBeGreaterThan(receivedBefore);
    } finally {
      await control('zoom', '/_fake/faults', { down: null });
    }
  }, 240_000);

  it('a dropped "cleared" event: the next status poll puts the device back and the alarm clears', async () => {
    await control('zoom', '/_fake/faults', { dropWebhooks: 1 });
    const droppedBefore = (await webhookStats()).webhooksDropped;
    const from = Date.now();
    await switchDevice('zoom', lone, true);
    expect((await webhookStats()).webhooksDropped).toBe(droppedBefore + 1);
    const stored = await until(() => device(lone), (d) => d.deviceconnected === true);
    expect(stored.deviceconnected).toBe(true);
    const cleared = await until(() => notices('alarms.cleared', lone, from), (found) => found.length > 0);
    expect(cleared).toHaveLength(1);
    expect(cleared[0]).toMatchObject({ watcher: { id: watcherId } });
  }, 240_000);

  it('a dropped alert: the next status poll switches the device off and the alarm fires', async () => {
    await control('zoom', '/_fake/faults', { dropWebhooks: 1 });
    const droppedBefore = (await webhookStats()).webhooksDropped;
    const from = Date.now();
    await switchDevice('zoom', lone, false);
    expect((await webhookStats()).webhooksDropped).toBe(droppedBefore + 1);
    const stored = await until(() => device(lone), (d) => d.deviceconnected === false);
    expect(stored.deviceconnected).toBe(false);
    const raised = await until(() => notices('alarms.raised', lone, from), (found) => found.length > 0);
    expect(raised).toHaveLength(1);
  }, 240_000);

  it('a Webex device switched off at the fake is found by the status poll and notified', async () => {
    const from = Date.now();
    await switchDevice('webex', webexDevice, false);
    const stored = await until(() => device(webexDevice), (d) => d.deviceconnected === false);
    expect(stored.deviceconnected).toBe(false);
    const raised = await until(() => notices('alarms.raised', webexDevice, from), (found) => found.length > 0);
    expect(raised).toHaveLength(1);
    expect(raised[0]!.alarms.find((a) => a.devicesn === webexDevice)).toMatchObject({ severity: 2 });
  }, 240_000);

  it('the refused events changed nothing to the end: their device stayed connected and was never notified', async () => {
    expect((await device(other.serial)).deviceconnected).toBe(true);
    expect(receiver.arrivals.filter((p) => p.alarms.some((a) => a.devicesn === other.serial))).toEqual([]);
    // every notification the service sent was signed with the channel's secret
    expect(receiver.arrivals.filter((p) => !p.signed)).toEqual([]);
  });
});
