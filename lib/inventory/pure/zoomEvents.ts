import { createHash, createHmac } from 'node:crypto';
import { sameSignature } from '#lib/shared/constantTime';

/*
 * Zoom's webhook requests (shared/vendors.md "Events"): the signature that is their only
 * credential, the freshness window that refuses a replayed request, the endpoint validation
 * answer, and what a room event says about its room's devices. Pure: the receiver
 * (lib/inventory/vendorEvents.ts) stores and counts.
 */

/** A request whose timestamp is further than this from our clock is refused (a replay, or a clock far off). */
export const ZOOM_TIMESTAMP_WINDOW_MS = 5 * 60_000;
/** Zoom's room events are a few hundred bytes; anything far larger is no event of theirs. */
export const ZOOM_EVENT_MAX_BYTES = 64 * 1024;
/** The event types the receiver acts on; any other signed event is answered 200 and counted as unknown. */
export const ZOOM_ROOM_EVENTS = ['zoomroom.alert', 'zoomroom.delayed_alert', 'zoomroom.created', 'zoomroom.updated', 'zoomroom.deleted'] as const;
export const ZOOM_URL_VALIDATION = 'endpoint.url_validation';

const hmacHex = (secret: string, text: string) => createHmac('sha256', secret).update(text, 'utf8').digest('hex');

/** The `x-zm-signature` Zoom sends for `rawBody` at `timestamp` (the fake signs with it too). */
export const zoomSignature = (secret: string, timestamp: string, rawBody: string): string => `v0=${hmacHex(secret, `v0:${timestamp}:${rawBody}`)}`;

export type Verdict = { ok: true; timestampMs: number } | { ok: false; reason: string };

/**
 * Whether a request is Zoom's: a signature over its exact bytes with our secret token, compared in
 * constant time (the comparison's duration says nothing about how much of a forgery was right),
 * and a timestamp within the window of `now` either way. Zoom's timestamp is in milliseconds in
 * some apps' requests and seconds in others: a value below 1e12 is read as seconds.
 */
export const verifyZoomRequest = (request: { secret: string; timestamp: string | undefined; signature: string | undefined; rawBody: string; now: number }): Verdict => {
  const { secret, timestamp, signature, rawBody, now } = request;
  if (!signature) return { ok: false, reason: 'the x-zm-signature header is missing' };
  if (!timestamp) return { ok: false, reason: 'the x-zm-request-timestamp header is missing' };
  if (!/^[0-9]{1,16}$/.test(timestamp)) return { ok: false, reason: 'the x-zm-request-timestamp header is not a number of seconds or milliseconds' };
  if (!sameSignature(signature, zoomSignature(secret, timestamp, rawBody))) return { ok: false, reason: 'the x-zm-signature does not match the body' };
  const value = Number(timestamp);
  const timestampMs = value < 1e12 ? value * 1000 : value;
  if (Math.abs(now - timestampMs) > ZOOM_TIMESTAMP_WINDOW_MS) {
    return { ok: false, reason: `the x-zm-request-timestamp is more than ${ZOOM_TIMESTAMP_WINDOW_MS / 60_000} minutes from now (a replayed or delayed request)` };
  }
  return { ok: true, timestampMs };
};

/** The answer to Zoom's endpoint validation: the token, and its HMAC with our secret token. */
export const urlValidationAnswer = (secret: string, plainToken: string) => ({ plainToken, encryptedToken: hmacHex(secret, plainToken) });

/** What a room event says about its room's devices. */
export type RoomChange =
  /**
   * A device of the room went offline or was disconnected (an alert triggered) or came back
   * (cleared): `component` names which kind of device (Zoom's `component`, e.g. "Controller");
   * without one, the room's own connection (its computer): the whole room.
   */
  | { kind: 'connectivity'; connected: boolean; issue: string; component?: string }
  /** Another alert (a component, low battery...): recorded, no connectivity change. */
  | { kind: 'alert'; issue: string; cleared: boolean }
  /** Created, updated or deleted: the next sync reads the room again. */
  | { kind: 'inventory' };

export type ZoomEvent =
  | { kind: 'validation'; plainToken: string }
  | { kind: 'room'; type: (typeof ZOOM_ROOM_EVENTS)[number]; roomId: string; roomName?: string; at: number; change: RoomChange }
  | { kind: 'unknown'; type: string; reason: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * An alert is cleared when Zoom says so: `alert_kind` 2 (1 is triggered), or a word saying it in
 * `alert_kind`/`status`, or a `cleared_time`. Fields may be missing (the payload is not
 * documented field by field): without any of them the alert counts as triggered.
 */
const isCleared = (object: Record<string, unknown>): boolean => {
  const kind = object.alert_kind ?? object.status;
  if (kind === 2 || kind === '2') return true;
  if (typeof kind === 'string' && /clear|resolv/i.test(kind)) return true;
  return text(object.cleared_time) !== undefined || (typeof object.cleared_time === 'number' && object.cleared_time > 0);
};

/** Zoom's words for a room that lost its connection ("Zoom room is offline", "Zoom Rooms Computer is offline"). */
const OFFLINE_ISSUE = /\boffline\b|disconnected/i;

/**
 * An event's time (`event_ts`, epoch milliseconds; read as seconds below 1e12, as the request
 * timestamp is), or `receivedAt` when it has none that can be right: a time further ahead of our
 * clock than the freshness window is no event's yet, and taken as such it would hold the room at
 * that state until then (every genuine event older), or be no date at all (1e20).
 */
export const eventTime = (eventTs: unknown, receivedAt: number): number => {
  if (typeof eventTs !== 'number' || !Number.isFinite(eventTs) || eventTs <= 0) return receivedAt;
  const ms = eventTs < 1e12 ? eventTs * 1000 : eventTs;
  return ms > receivedAt + ZOOM_TIMESTAMP_WINDOW_MS ? receivedAt : ms;
};

/**
 * A signed event as ours. `receivedAt` stands in for an event time Zoom left out (`event_ts`,
 * milliseconds): events of one room are applied in the order of this time.
 */
export const readZoomEvent = (body: unknown, receivedAt: number): ZoomEvent => {
  if (!isObject(body)) return { kind: 'unknown', type: '', reason: 'not a JSON object' };
  const type = text(body.event) ?? '';
  const payload = isObject(body.payload) ? body.payload : {};
  if (type === ZOOM_URL_VALIDATION) {
    const plainToken = text(payload.plainToken);
    return plainToken && plainToken.length <= 256 ? { kind: 'validation', plainToken } : { kind: 'unknown', type, reason: 'an endpoint validation without a plainToken' };
  }
  const known = ZOOM_ROOM_EVENTS.find((name) => name === type);
  if (!known) return { kind: 'unknown', type: type.slice(0, 64), reason: 'an event type the receiver does not act on' };
  const object = isObject(payload.object) ? payload.object : {};
  const roomId = text(object.id) ?? text(object.room_id);
  if (!roomId) return { kind: 'unknown', type, reason: 'a room event without a room id' };
  const at = eventTime(body.event_ts, receivedAt);
  const roomName = text(object.room_name) ?? text(object.name);
  let change: RoomChange = { kind: 'inventory' };
  if (known === 'zoomroom.alert' || known === 'zoomroom.delayed_alert') {
    const issue = (text(object.issue) ?? text(object.alert_type) ?? '').slice(0, 256);
    const cleared = isCleared(object);
    const component = text(object.component)?.slice(0, 128);
    change = OFFLINE_ISSUE.test(issue) ? { kind: 'connectivity', connected: cleared, issue, ...(component ? { component } : {}) } : { kind: 'alert', issue, cleared };
  }
  return { kind: 'room', type: known, roomId: roomId.slice(0, 128), ...(roomName ? { roomName: roomName.slice(0, 256) } : {}), at, change };
};

/**
 * The identity of a delivery: Zoom's retries send the same body, so its hash tells a duplicate
 * from a new event whatever the retry's own timestamp and signature.
 */
export const eventDigest = (rawBody: string): string => createHash('sha256').update(rawBody, 'utf8').digest('hex').slice(0, 32);
