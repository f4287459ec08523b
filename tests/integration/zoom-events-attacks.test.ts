import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { devices } from '#lib/devices/repository/devices';
import * as vendorEvents from '#lib/inventory/repository/vendorEvents';
import { syncDevices } from '#lib/inventory/sync';
import { fixed, unique } from '../support/fleet';
import { zoomAlert, zoomDeliveries, zoomDevice } from '../support/zoomEvents';

/*
 * Attacks on POST /vendors/zoom/events as a hostile (or broken) vendor would make them: each
 * request correctly signed, its payload hostile. Never a 5xx; nothing stored half; a room's
 * state never frozen by a time no event can beat.
 */
const SECRET = 'attack-webhook-secret';
process.env.ZOOM_WEBHOOK_SECRET_TOKEN = SECRET;
// the event times are under test, not the apply budget: on a loaded machine an event past its
// 2 s would be left to the next poll, and the device read here would not show it yet
beforeAll(() => {
  vi.stubEnv('ZOOM_APPLY_BUDGET_MS', '60000');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

const { deliver } = zoomDeliveries(SECRET);

describe('signed Zoom events with hostile event times', () => {
  it.each([
    ['beyond what a date holds (1e20)', 1e20],
    ['a year ahead', Date.now() + 365 * 86_400_000],
  ])('an event_ts %s is answered 2xx and does not freeze the room: a later real event still applies', async (_label, eventTs) => {
    const room = unique('room-future');
    const sn = unique('FUTURE');
    await syncDevices(fixed(() => [zoomDevice(sn, room, true)]));
    const hostile = await deliver(zoomAlert(room, eventTs, 1));
    expect(hostile.status).toBe(200);
    // the next genuine events of the room, triggered then cleared, are applied in order
    const now = Date.now();
    expect((await deliver(zoomAlert(room, now + 1, 1))).status).toBe(200);
    expect((await devices.get(sn)).status.connected).toBe(false);
    expect((await deliver(zoomAlert(room, now + 2, 2))).status).toBe(200);
    expect((await devices.get(sn)).status.connected).toBe(true);
    expect((await vendorEvents.roomPart({ vendor: 'zoom', room }))?.connectedAt).toBeLessThanOrEqual(Date.now());
  });

  it.each([
    ['in seconds instead of milliseconds', () => Math.ceil(Date.now() / 1000) + 1],
    ['a float', () => Date.now() + 0.5],
    ['negative', () => -5],
  ])('an event_ts %s is answered 2xx and applied', async (_label, eventTs) => {
    const room = unique('room-odd');
    const sn = unique('ODD');
    await syncDevices(fixed(() => [zoomDevice(sn, room, true)]));
    const answer = await deliver(zoomAlert(room, eventTs(), 1));
    expect(answer.status).toBe(200);
    expect((await devices.get(sn)).status.connected).toBe(false);
  });

  it.each([
    ['a string', String(Date.now())],
    ['null', null],
    ['an object', { ms: Date.now() }],
  ])('an event_ts that is %s is refused 400 naming it, and nothing is stored', async (_label, eventTs) => {
    const room = unique('room-mistyped');
    const answer = await deliver(zoomAlert(room, eventTs, 1));
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('event_ts');
    expect(await vendorEvents.roomPart({ vendor: 'zoom', room })).toBeUndefined();
  });
});
