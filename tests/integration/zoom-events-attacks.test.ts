import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { devices } from '#lib/devices/repository/devices';
import * as vendorEvents from '#lib/inventory/repository/vendorEvents';
import { syncDevices } from '#lib/inventory/sync';
import type { ProviderDevice } from '#lib/devices/types';
import { handler } from '../../functions/vendors/zoomEvents';
import { apiEvent, lambdaContext } from '../support/events';
import { fixed, unique } from '../support/fleet';

/*
 * Attacks on POST /vendors/zoom/events as a hostile (or broken) vendor would make them: each
 * request correctly signed, its payload hostile. Never a 5xx; nothing stored half; a room's
 * state never frozen by a time no event can beat.
 */
const SECRET = 'attack-webhook-secret';
process.env.ZOOM_WEBHOOK_SECRET_TOKEN = SECRET;

const sign = (timestamp: string, body: string) => `v0=${createHmac('sha256', SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
const deliver = async (body: string, timestamp = String(Math.floor(Date.now() / 1000))) => {
  const answer = await handler(
    apiEvent({
      httpMethod: 'POST',
      resource: '/vendors/zoom/events',
      path: '/vendors/zoom/events',
      body,
      headers: { 'Content-Type': 'application/json', 'x-zm-request-timestamp': timestamp, 'x-zm-signature': sign(timestamp, body) },
    }),
    lambdaContext(),
  );
  return { status: answer.statusCode, body: answer.body ? (JSON.parse(answer.body) as Record<string, unknown>) : undefined };
};
const alert = (room: string, eventTs: unknown, kind: 1 | 2) =>
  JSON.stringify({ event: 'zoomroom.alert', event_ts: eventTs, payload: { account_id: 'acct', object: { id: room, room_name: 'Room', issue: 'Zoom room is offline', alert_kind: kind } } });
const zoomDevice = (sn: string, room: string, connected: boolean): ProviderDevice => ({
  deviceid: `id-${sn}`,
  devicesn: sn,
  devicemodel: 'ZR',
  status: { connected, inCallStatus: 'NONE' },
  details: { region: 'Zoomland', location: 'Paris', room: `Board ${room}` },
  vendor: 'zoom',
  vendorRef: `${room}/floor-1/${encodeURIComponent('Zoom Rooms Computer')}`,
});

describe('signed Zoom events with hostile event times', () => {
  it.each([
    ['beyond what a date holds (1e20)', 1e20],
    ['a year ahead', Date.now() + 365 * 86_400_000],
  ])('an event_ts %s is answered 2xx and does not freeze the room: a later real event still applies', async (_label, eventTs) => {
    const room = unique('room-future');
    const sn = unique('FUTURE');
    await syncDevices(fixed(() => [zoomDevice(sn, room, true)]));
    const hostile = await deliver(alert(room, eventTs, 1));
    expect(hostile.status).toBe(200);
    // the next genuine events of the room, triggered then cleared, are applied in order
    const now = Date.now();
    expect((await deliver(alert(room, now + 1, 1))).status).toBe(200);
    expect((await devices.get(sn)).status.connected).toBe(false);
    expect((await deliver(alert(room, now + 2, 2))).status).toBe(200);
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
    const answer = await deliver(alert(room, eventTs(), 1));
    expect(answer.status).toBe(200);
    expect((await devices.get(sn)).status.connected).toBe(false);
  });

  it.each([
    ['a string', String(Date.now())],
    ['null', null],
    ['an object', { ms: Date.now() }],
  ])('an event_ts that is %s is refused 400 naming it, and nothing is stored', async (_label, eventTs) => {
    const room = unique('room-mistyped');
    const answer = await deliver(alert(room, eventTs, 1));
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('event_ts');
    expect(await vendorEvents.roomPart({ vendor: 'zoom', room })).toBeUndefined();
  });
});
