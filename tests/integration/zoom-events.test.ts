import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as vendorEvents from '#lib/inventory/repository/vendorEvents';
import { VendorEventEntity } from '#lib/inventory/entities';
import { providersReport } from '#lib/inventory/providerReport';
import { eventDigest } from '#lib/inventory/pure/zoomEvents';
import { handler } from '../../functions/vendors/zoomEvents';
import type { ZoomFake } from '../../scripts/local/fakes/zoom';
import { syncDevices } from '#lib/inventory/sync';
import { mapConcurrent } from '#lib/shared/concurrency';
import { devices } from '#lib/devices/repository/devices';
import * as connectivity from '#lib/devices/repository/connectivity';
import { toDevice } from '#lib/devices/types';
import { fixed } from '../support/fleet';
import { apiEvent, lambdaContext } from '../support/events';
import { zoomAlert, zoomDeliveries, zoomDevice } from '../support/zoomEvents';
import { fleetOf, resetFaults, zoomAdapter, zoomFake } from '../support/vendors';

// POST /vendors/zoom/events: Zoom's signature is the credential; an event is stored once, before
// the 2xx; a room's connectivity follows the newest event time. This file has its own table.
const SECRET = 'integration-webhook-secret';
process.env.ZOOM_WEBHOOK_SECRET_TOKEN = SECRET;

const { sign, deliver } = zoomDeliveries(SECRET);
const counts = async () => {
  const { vendor: _vendor, ...counted } = (await vendorEvents.counts()).find((c) => c.vendor === 'zoom') ?? { vendor: 'zoom', received: 0, rejected: 0, duplicates: 0, unknown: 0, lastEventAt: null };
  return counted;
};

describe('POST /vendors/zoom/events', () => {
  it('answers the endpoint validation with the HMAC of plainToken', async () => {
    const answer = await deliver(JSON.stringify({ event: 'endpoint.url_validation', payload: { plainToken: 'plain-123' } }));
    expect(answer).toEqual({ status: 200, body: { plainToken: 'plain-123', encryptedToken: createHmac('sha256', SECRET).update('plain-123').digest('hex') } });
  });

  it('refuses unsigned, mis-signed and replayed requests with 401 saying why, stores nothing, counts them', async () => {
    const before = await counts();
    const body = zoomAlert('room-refused', Date.now(), 1);
    const stale = String(Math.floor(Date.now() / 1000) - 6 * 60);
    const answers = [
      await deliver(body, { 'x-zm-signature': undefined }),
      await deliver(body, { 'x-zm-signature': sign('1', 'another body') }),
      await deliver(body, { 'x-zm-request-timestamp': stale, 'x-zm-signature': sign(stale, body) }),
    ];
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401]);
    expect(answers.map((a) => a.body?.message)).toEqual([
      expect.stringMatching(/x-zm-signature header is missing/),
      expect.stringMatching(/does not match the body/),
      expect.stringMatching(/more than 5 minutes from now/),
    ]);
    expect(await VendorEventEntity.read({ vendor: 'zoom', room: 'room-refused', digest: eventDigest(body) }, { consistent: true })).toBeUndefined();
    expect(await vendorEvents.roomPart({ vendor: 'zoom', room: 'room-refused' })).toBeUndefined();
    expect((await counts()).rejected - before.rejected).toBe(3);
  });

  it('refuses a body over 64 KiB with 413, even signed', async () => {
    const answer = await deliver(zoomAlert('room-big', Date.now(), 1, { padding: 'x'.repeat(70 * 1024) }));
    expect(answer.status).toBe(413);
    expect(await vendorEvents.roomPart({ vendor: 'zoom', room: 'room-big' })).toBeUndefined();
  });

  it('stores an event before answering; the same delivery again is a duplicate that changes nothing', async () => {
    const before = await counts();
    const at = Date.now();
    const body = zoomAlert('room-dup', at, 1);
    // no device of room-dup is known: the event is kept for the next sync
    expect(await deliver(body)).toEqual({ status: 200, body: { received: true, duplicate: false, outcome: 'unknownRoom' } });
    expect(await VendorEventEntity.find({ vendor: 'zoom', room: 'room-dup', digest: eventDigest(body) }, { consistent: true })).toMatchObject({ at, state: 'unknownRoom' });
    expect(await vendorEvents.roomPart({ vendor: 'zoom', room: 'room-dup' })).toMatchObject({ connected: false, connectedAt: at });
    expect(await deliver(body)).toEqual({ status: 200, body: { received: true, duplicate: true, outcome: 'unknownRoom' } });
    const after = await counts();
    expect([after.received - before.received, after.duplicates - before.duplicates]).toEqual([1, 1]);
  });

  it('applies events by event time: an older event arriving late never rewinds a newer state', async () => {
    await syncDevices(fixed(() => [zoomDevice('ORDER-1', 'room-order', true, 'Zoom Rooms Computer')]));
    const t = Date.now();
    expect((await deliver(zoomAlert('room-order', t + 10, 2))).body).toMatchObject({ outcome: 'applied' });
    expect((await deliver(zoomAlert('room-order', t, 1))).body).toMatchObject({ outcome: 'stale', duplicate: false });
    expect(await vendorEvents.roomPart({ vendor: 'zoom', room: 'room-order' })).toMatchObject({ connected: true, connectedAt: t + 10 });
    expect((await devices.get('ORDER-1')).status.connected).toBe(true);
    expect((await deliver(zoomAlert('room-order', t + 20, 1))).body).toMatchObject({ outcome: 'applied' });
    expect(await vendorEvents.roomPart({ vendor: 'zoom', room: 'room-order' })).toMatchObject({ connected: false, connectedAt: t + 20 });
    expect(toDevice(await devices.get('ORDER-1'))).toMatchObject({ deviceconnected: false, status: { connected: false } });
  });

  it("applies a component's alert to that component's devices of the room, and a room alert to its computer", async () => {
    const room = 'room-parts';
    await syncDevices(fixed(() => [zoomDevice('PARTS-PC', room, true, 'Zoom Rooms Computer'), zoomDevice('PARTS-CTL', room, true, 'Controller')]));
    const t = Date.now();
    expect((await deliver(zoomAlert(room, t, 1, { component: 'Controller', issue: 'Controller is disconnected' }))).body).toMatchObject({ outcome: 'applied' });
    expect([(await devices.get('PARTS-PC')).status.connected, (await devices.get('PARTS-CTL')).status.connected]).toEqual([true, false]);
    expect((await deliver(zoomAlert(room, t + 1, 1))).body).toMatchObject({ outcome: 'applied' });
    expect([(await devices.get('PARTS-PC')).status.connected, (await devices.get('PARTS-CTL')).status.connected]).toEqual([false, false]);
  });

  it('keeps an event about a room not known yet; the next sync applies it when newer than its listing, and only then', async () => {
    const room = 'room-later';
    const t = Date.now();
    const older = zoomAlert(room, t - 60_000, 1, { component: 'Controller', issue: 'Controller is disconnected' });
    // an event time after the listing below (Zoom's clock is not ours: a room can be listed before its event is stored)
    const newer = zoomAlert(room, t + 60_000, 1, { component: 'Zoom Rooms Computer' });
    expect((await deliver(older)).body).toMatchObject({ outcome: 'unknownRoom' });
    expect((await deliver(newer)).body).toMatchObject({ outcome: 'unknownRoom' });

    await syncDevices(fixed(() => [zoomDevice('LATER-PC', room, true, 'Zoom Rooms Computer'), zoomDevice('LATER-CTL', room, true, 'Controller')]));
    expect([(await devices.get('LATER-PC')).status.connected, (await devices.get('LATER-CTL')).status.connected]).toEqual([false, true]);
    const stateOf = async (body: string) => (await VendorEventEntity.find({ vendor: 'zoom', room, digest: eventDigest(body) }, { consistent: true }))?.state;
    expect([await stateOf(older), await stateOf(newer)]).toEqual(['stale', 'applied']);
    // the next sync finds nothing kept: the device stays as the event left it until the listing says otherwise
    await syncDevices(fixed(() => [zoomDevice('LATER-PC', room, false, 'Zoom Rooms Computer'), zoomDevice('LATER-CTL', room, true, 'Controller')]));
    expect((await devices.get('LATER-PC')).status.connected).toBe(false);
  });

  it('takes a flood of valid events without dropping one: each stored, each device left at its newest event', async () => {
    const room = 'room-flood';
    const types = ['Zoom Rooms Computer', 'Controller', 'Companion Whiteboard'];
    await syncDevices(fixed(() => types.map((type, i) => zoomDevice(`FLOOD-${i}`, room, true, type))));
    const before = await counts();
    const t = Date.now();
    // 20 events a device, alternating, the newest of each an offline alert; all delivered at once, shuffled
    const events = types.flatMap((type, i) => Array.from({ length: 20 }, (_, k) => ({ type, at: t + k * 10 + i, online: k % 2 === 0 })));
    const shuffled = events.map((e, i) => ({ e, order: (i * 7919) % events.length })).sort((a, b) => a.order - b.order).map(({ e }) => e);
    const bodies = shuffled.map(({ type, at, online }) => zoomAlert(room, at, online ? 2 : 1, { component: type }));
    // several receivers at once, as Lambda runs them; the budget is lifted here (this one process
    // stands for all of them on a shared machine): what is asserted is order and loss, not speed
    process.env.ZOOM_APPLY_BUDGET_MS = '60000';
    const answers = await mapConcurrent(bodies, 6, (body) => deliver(body)).finally(() => delete process.env.ZOOM_APPLY_BUDGET_MS);
    expect(answers.map((a) => [a.status, a.body?.duplicate])).toEqual(bodies.map(() => [200, false]));
    expect((await counts()).received - before.received).toBe(events.length);
    const stored = await Promise.all(bodies.map((body) => VendorEventEntity.find({ vendor: 'zoom', room, digest: eventDigest(body) }, { consistent: true })));
    expect(stored.filter((event) => event !== undefined)).toHaveLength(events.length);
    for (const [i] of types.entries()) {
      expect((await devices.get(`FLOOD-${i}`)).status.connected).toBe(false);
      const newest = (await connectivity.history(`FLOOD-${i}`, '', new Date(t + 3_600_000).toISOString(), 1)).items[0];
      expect(newest).toMatchObject({ at: new Date(t + 190 + i).toISOString(), connected: false });
    }
    // a forged clearing newer than all of them changes nothing
    const forged = zoomAlert(room, t + 1000, 2, { component: types[0] });
    expect((await deliver(forged, { 'x-zm-signature': sign('1', forged) })).status).toBe(401);
    expect((await devices.get('FLOOD-0')).status.connected).toBe(false);
  }, 120_000);

  it('answers within its budget: an event it could not apply in time is stored, answered 200, and left for the sweep', async () => {
    const room = 'room-budget';
    await syncDevices(fixed(() => [zoomDevice('BUDGET-PC', room, true, 'Zoom Rooms Computer')]));
    const body = zoomAlert(room, Date.now(), 1);
    process.env.ZOOM_APPLY_BUDGET_MS = '0';
    try {
      expect(await deliver(body)).toEqual({ status: 200, body: { received: true, duplicate: false, outcome: 'recorded' } });
    } finally {
      delete process.env.ZOOM_APPLY_BUDGET_MS;
    }
    expect(await VendorEventEntity.find({ vendor: 'zoom', room, digest: eventDigest(body) }, { consistent: true })).toMatchObject({ state: 'received' });
    expect((await devices.get('BUDGET-PC')).status.connected).toBe(true);
    // Zoom's retry of the same delivery applies it
    expect((await deliver(body)).body).toMatchObject({ duplicate: true, outcome: 'applied' });
    expect((await devices.get('BUDGET-PC')).status.connected).toBe(false);
  });

  it('answers an event type it does not act on 200 and counts it', async () => {
    const before = await counts();
    expect(await deliver(JSON.stringify({ event: 'meeting.started', payload: { object: { id: 'm' } } }))).toEqual({
      status: 200,
      body: { received: true, duplicate: false, outcome: 'unknownType' },
    });
    expect((await counts()).unknown - before.unknown).toBe(1);
  });

  it('reports the counts in GET /providers, and null for a vendor that pushed nothing', async () => {
    const report = await providersReport();
    const byName = new Map(report.providers.map((p) => [p.name, p]));
    expect(byName.get('zoom')?.events).toEqual({ ...(await counts()), lastEventAt: expect.stringMatching(/^\d{4}-/) });
    for (const provider of report.providers.filter((p) => p.name !== 'zoom')) expect(provider.events).toBeNull();
  });
});

describe("the Zoom fake's webhooks", () => {
  const fleet = fleetOf(38, 12, 4);
  const zoomDevices = fleet;
  let fake: ZoomFake;
  let receiver: Server;
  const outcomes: Record<string, unknown>[] = [];
  let waiters: (() => void)[] = [];
  const arrivals = (n: number) =>
    new Promise<void>((resolve) => {
      const check = () => (outcomes.length >= n ? resolve() : waiters.push(check));
      check();
    });

  beforeAll(async () => {
    // a receiver in front of the handler, as serverless offline is under npm start
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        void handler(
          apiEvent({ httpMethod: 'POST', resource: '/vendors/zoom/events', body, headers: req.headers as Record<string, string> }),
          lambdaContext(),
        ).then((answer) => {
          outcomes.push({ status: answer.statusCode, ...(JSON.parse(answer.body) as Record<string, unknown>) });
          const ready = waiters;
          waiters = [];
          for (const wake of ready) wake();
          res.writeHead(answer.statusCode).end(answer.body);
        });
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    fake = await zoomFake(() => zoomDevices, { extras: false, webhook: { url: `http://127.0.0.1:${port}/`, secret: SECRET } });
    // the sync writes the fake's rooms into the vendor room directory
    await syncDevices(zoomAdapter(fake.url));
  });
  afterAll(async () => {
    await fake.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  const switchDevice = (serial: string, connected: boolean) =>
    fetch(`${fake.url}/_fake/devices/${encodeURIComponent(serial)}`, { method: 'POST', body: JSON.stringify({ connected }) }).then((answer) => answer.status);

  it('sends a signed alert the receiver applies when a device is switched off, and its clearing when switched on', async () => {
    const device = zoomDevices.find((d) => d.status.connected)!;
    expect(await switchDevice(device.devicesn, false)).toBe(200);
    await arrivals(1);
    expect(outcomes[0]).toMatchObject({ status: 200, received: true, duplicate: false, outcome: 'applied' });
    // what GET /videoDevice/<serial> answers: the stored device, offline
    expect(toDevice(await devices.get(device.devicesn))).toMatchObject({ deviceconnected: false, status: { connected: false } });
    expect(await switchDevice(device.devicesn, true)).toBe(200);
    await arrivals(2);
    expect(outcomes[1]).toMatchObject({ status: 200, outcome: 'applied' });
    expect((await devices.get(device.devicesn)).status.connected).toBe(true);
  });

  it('drops the next n events with dropWebhooks, and sends the next n twice with duplicateWebhooks', async () => {
    const [first, second] = zoomDevices.filter((d) => d.status.connected).slice(1, 3);
    resetFaults(fake, { dropWebhooks: 1 });
    await switchDevice(first!.devicesn, false);
    expect(fake.webhookStats.webhooksDropped).toBe(1);
    resetFaults(fake, { duplicateWebhooks: 1 });
    const seen = outcomes.length;
    await switchDevice(second!.devicesn, false);
    await arrivals(seen + 2);
    expect(outcomes.slice(seen).map((o) => o.duplicate).sort()).toEqual([false, true]);
    resetFaults(fake);
  });
});
