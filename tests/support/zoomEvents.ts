import { createHmac } from 'node:crypto';
import { handler } from '../../functions/vendors/zoomEvents';
import type { ProviderDevice } from '#lib/devices/types';
import { apiEvent, lambdaContext } from './events';

/**
 * Zoom's deliveries to our receiver, called in process: each body signed with `secret` as Zoom
 * signs (`v0=` HMAC of `v0:<timestamp>:<body>`), timestamped now; `headers` override or (as
 * undefined) drop any header. The secret is the receiver's, so the caller's file sets
 * ZOOM_WEBHOOK_SECRET_TOKEN to it before the first delivery.
 */
export const zoomDeliveries = (secret: string) => {
  // computed here as vendors.md says Zoom signs, not by the code under test
  const sign = (timestamp: string, body: string) => `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  const deliver = async (body: string, headers: Record<string, string | undefined> = {}) => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const answer = await handler(
      apiEvent({
        httpMethod: 'POST',
        resource: '/vendors/zoom/events',
        path: '/vendors/zoom/events',
        body,
        headers: { 'Content-Type': 'application/json', 'x-zm-request-timestamp': timestamp, 'x-zm-signature': sign(timestamp, body), ...headers } as Record<string, string>,
      }),
      lambdaContext(),
    );
    return { status: answer.statusCode, body: answer.body ? (JSON.parse(answer.body) as Record<string, unknown>) : undefined };
  };
  return { sign, deliver };
};

/** A `zoomroom.alert` body about `room` (kind 1 triggered, 2 cleared) at `eventTs` (any value: hostile ones too). */
export const zoomAlert = (room: string, eventTs: unknown, kind: 1 | 2, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ event: 'zoomroom.alert', event_ts: eventTs, payload: { account_id: 'acct', object: { id: room, room_name: 'Room', issue: 'Zoom room is offline', alert_kind: kind, ...extra } } });

/** A Zoom device of `room` as a sync lists it: its `vendorRef` names the room and the device type the directory reads. */
export const zoomDevice = (sn: string, room: string, connected: boolean, type = 'Zoom Rooms Computer'): ProviderDevice => ({
  deviceid: `id-${sn}`,
  devicesn: sn,
  devicemodel: 'ZR',
  status: { connected, inCallStatus: 'NONE' },
  details: { region: 'Zoomland', location: 'Paris', room: `Board ${room}` },
  vendor: 'zoom',
  vendorRef: `${room}/floor-1/${encodeURIComponent(type)}`,
});
