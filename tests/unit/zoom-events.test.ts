import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventDigest, eventTime, readZoomEvent, urlValidationAnswer, verifyZoomRequest, ZOOM_TIMESTAMP_WINDOW_MS } from '#lib/inventory/pure/zoomEvents';
import { alertBody, signatureOf } from '../../scripts/local/fakes/zoomWebhooks';

// Zoom's webhook rules (shared/vendors.md "Events"), checked against HMACs computed here, not by the code under test.
const SECRET = 'test-secret-token';
const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);
const hmac = (text: string) => createHmac('sha256', SECRET).update(text).digest('hex');
const body = JSON.stringify({ event: 'zoomroom.alert', event_ts: NOW, payload: { object: { id: 'room-1', issue: 'Zoom room is offline', alert_kind: 1 } } });
const seconds = String(NOW / 1000);
const signed = (overrides: Partial<Parameters<typeof verifyZoomRequest>[0]> = {}) =>
  verifyZoomRequest({ secret: SECRET, timestamp: seconds, signature: `v0=${hmac(`v0:${seconds}:${body}`)}`, rawBody: body, now: NOW, ...overrides });

describe('verifyZoomRequest', () => {
  it('accepts a request signed over v0:<timestamp>:<body> with the secret token, timestamps in seconds or milliseconds', () => {
    expect(signed()).toEqual({ ok: true, timestampMs: NOW });
    const ms = String(NOW);
    expect(signed({ timestamp: ms, signature: `v0=${hmac(`v0:${ms}:${body}`)}` })).toEqual({ ok: true, timestampMs: NOW });
  });

  it.each([
    ['no signature', { signature: undefined }, /x-zm-signature header is missing/],
    ['no timestamp', { timestamp: undefined }, /x-zm-request-timestamp header is missing/],
    ['a timestamp that is no number', { timestamp: '12:00' }, /not a number/],
    ['another secret', { secret: 'other' }, /does not match/],
    ['a body changed by one byte', { rawBody: body.replace('room-1', 'room-2') }, /does not match/],
    ['a truncated signature', { signature: `v0=${hmac(`v0:${seconds}:${body}`).slice(0, 40)}` }, /does not match/],
    ['a signature without v0=', { signature: hmac(`v0:${seconds}:${body}`) }, /does not match/],
  ])('refuses %s, saying why', (_, overrides, reason) => {
    const verdict = signed(overrides);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? '' : verdict.reason).toMatch(reason);
  });

  it('refuses a correctly signed request whose timestamp is more than 5 minutes from now, either way (a replay)', () => {
    for (const at of [NOW - ZOOM_TIMESTAMP_WINDOW_MS - 1000, NOW + ZOOM_TIMESTAMP_WINDOW_MS + 1000]) {
      const timestamp = String(at);
      const verdict = signed({ timestamp, signature: `v0=${hmac(`v0:${timestamp}:${body}`)}` });
      expect(verdict).toEqual({ ok: false, reason: expect.stringMatching(/more than 5 minutes from now/) });
    }
    const edge = String(NOW - ZOOM_TIMESTAMP_WINDOW_MS + 1000);
    expect(signed({ timestamp: edge, signature: `v0=${hmac(`v0:${edge}:${body}`)}` }).ok).toBe(true);
  });

  it("agrees with the fake's own signing", () => {
    expect(signed({ signature: signatureOf(SECRET, seconds, body) }).ok).toBe(true);
  });
});

describe('urlValidationAnswer', () => {
  it('answers the plainToken and its HMAC-SHA256 with the secret token, hex', () => {
    expect(urlValidationAnswer(SECRET, 'qgg8vlvZRS6UYooatFL8Aw')).toEqual({ plainToken: 'qgg8vlvZRS6UYooatFL8Aw', encryptedToken: hmac('qgg8vlvZRS6UYooatFL8Aw') });
  });
});

describe('readZoomEvent', () => {
  const room = { id: 'room-1', room_name: 'Board Room' };
  it('reads an endpoint validation', () => {
    expect(readZoomEvent({ event: 'endpoint.url_validation', payload: { plainToken: 'abc' } }, NOW)).toEqual({ kind: 'validation', plainToken: 'abc' });
    expect(readZoomEvent({ event: 'endpoint.url_validation', payload: {} }, NOW).kind).toBe('unknown');
  });

  it('reads an offline alert as the room going offline, its clearing as the room back, by event_ts', () => {
    expect(readZoomEvent({ event: 'zoomroom.alert', event_ts: NOW - 5, payload: { object: { ...room, issue: 'Zoom room is offline', alert_kind: 1 } } }, NOW)).toEqual({
      kind: 'room', type: 'zoomroom.alert', roomId: 'room-1', roomName: 'Board Room', at: NOW - 5, change: { kind: 'connectivity', connected: false, issue: 'Zoom room is offline' },
    });
    const cleared = readZoomEvent({ event: 'zoomroom.delayed_alert', event_ts: NOW - 4, payload: { object: { ...room, issue: 'Zoom room is offline', alert_kind: 2 } } }, NOW);
    expect(cleared).toMatchObject({ at: NOW - 4, change: { kind: 'connectivity', connected: true } });
  });

  it('reads a component that was disconnected as that component, and other alerts as no connectivity change', () => {
    expect(readZoomEvent({ event: 'zoomroom.alert', payload: { object: { ...room, issue: 'Controller is disconnected', component: 'Controller' } } }, NOW)).toMatchObject({
      at: NOW, change: { kind: 'connectivity', connected: false, component: 'Controller' },
    });
    expect(readZoomEvent({ event: 'zoomroom.alert', payload: { object: { ...room, issue: 'Low battery', cleared_time: '2026-11-28T12:00:00Z' } } }, NOW)).toMatchObject({
      change: { kind: 'alert', issue: 'Low battery', cleared: true },
    });
  });

  it('reads room changes as inventory changes, and anything else as unknown with a reason', () => {
    expect(readZoomEvent({ event: 'zoomroom.updated', event_ts: 1, payload: { object: room } }, NOW)).toMatchObject({ kind: 'room', change: { kind: 'inventory' } });
    expect(readZoomEvent({ event: 'meeting.started', payload: {} }, NOW)).toEqual({ kind: 'unknown', type: 'meeting.started', reason: expect.any(String) });
    expect(readZoomEvent({ event: 'zoomroom.alert', payload: { object: {} } }, NOW)).toMatchObject({ kind: 'unknown', reason: /without a room id/ });
    expect(readZoomEvent([1], NOW).kind).toBe('unknown');
  });

  it("reads the fake's alerts as Zoom's", () => {
    const device = { serial: 'S1', roomId: 'zr-1', roomName: 'Room', deviceType: 'Zoom Rooms Computer', online: false };
    expect(readZoomEvent(alertBody(device, NOW - 7, 'acct'), NOW)).toMatchObject({ roomId: 'zr-1', at: NOW - 7, change: { kind: 'connectivity', connected: false, component: 'Zoom Rooms Computer' } });
    expect(readZoomEvent(alertBody({ ...device, online: true }, NOW - 6, 'acct'), NOW)).toMatchObject({ at: NOW - 6, change: { connected: true } });
  });
});

describe('eventDigest', () => {
  it('is the same for the same body (a retry) and differs for another', () => {
    expect(eventDigest(body)).toBe(eventDigest(`${body}`));
    expect(eventDigest(body)).not.toBe(eventDigest(body.replace('room-1', 'room-2')));
  });
});

describe('eventTime', () => {
  it('reads event_ts in milliseconds, below 1e12 in seconds, and takes the arrival time for none, a time far ahead or no date at all', () => {
    expect(eventTime(NOW - 1000, NOW)).toBe(NOW - 1000);
    expect(eventTime((NOW - 1000) / 1000, NOW)).toBe(NOW - 1000);
    expect(eventTime(NOW + ZOOM_TIMESTAMP_WINDOW_MS, NOW)).toBe(NOW + ZOOM_TIMESTAMP_WINDOW_MS);
    for (const hostile of [NOW + ZOOM_TIMESTAMP_WINDOW_MS + 1, 1e20, Number.NaN, Number.POSITIVE_INFINITY, -5, 0, '1', null, undefined]) expect(eventTime(hostile, NOW)).toBe(NOW);
  });
});
