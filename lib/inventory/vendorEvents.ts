import { PayloadTooLarge, Unauthorized } from '#lib/shared/errors';
import { logger } from '#lib/shared/log';
import { eventDigest, readZoomEvent, urlValidationAnswer, verifyZoomRequest, ZOOM_EVENT_MAX_BYTES } from './pure/zoomEvents';
import * as events from './repository/vendorEvents';
import { applyToDevices } from './roomEvents';

/*
 * Zoom's event receiver: a request is Zoom's when its signature holds and its timestamp is fresh;
 * then it is stored before it is acknowledged, once (a retried delivery changes nothing again), and
 * a room's connectivity follows the newest event time, never an older one arriving late.
 */

export interface ZoomDelivery {
  /** The request's exact bytes, as signed. */
  rawBody: string;
  /** The body parsed (by lib/http). */
  body: unknown;
  timestamp: string | undefined;
  signature: string | undefined;
  /** The app's secret token; undefined when none is configured (every request is refused). */
  secret: string | undefined;
  now?: number;
}

export type ZoomAnswer =
  | { plainToken: string; encryptedToken: string }
  | { received: true; duplicate: boolean; outcome: 'applied' | 'stale' | 'recorded' | 'unknownRoom' | 'unknownType' };

const VENDOR = 'zoom';

/** A refused request: counted, logged without its body or headers, answered 401 saying why. */
const refuse = async (reason: string): Promise<never> => {
  await events.count(VENDOR, 'rejected');
  logger.warn('vendor event refused', { vendor: VENDOR, reason });
  throw new Unauthorized(`Refused: ${reason}`);
};

export const receiveZoomEvent = async (delivery: ZoomDelivery): Promise<ZoomAnswer> => {
  const now = delivery.now ?? Date.now();
  if (Buffer.byteLength(delivery.rawBody) > ZOOM_EVENT_MAX_BYTES) {
    await events.count(VENDOR, 'rejected');
    throw new PayloadTooLarge(ZOOM_EVENT_MAX_BYTES);
  }
  if (!delivery.secret) return refuse('no webhook secret token is configured (ZOOM_WEBHOOK_SECRET_TOKEN)');
  const verdict = verifyZoomRequest({ secret: delivery.secret, timestamp: delivery.timestamp, signature: delivery.signature, rawBody: delivery.rawBody, now });
  if (!verdict.ok) return refuse(verdict.reason);
  const event = readZoomEvent(delivery.body, now);
  if (event.kind === 'validation') return urlValidationAnswer(delivery.secret, event.plainToken);
  const receivedAt = new Date(now).toISOString();
  if (event.kind === 'unknown') {
    await events.count(VENDOR, 'unknown', receivedAt);
    logger.info('vendor event not acted on', { vendor: VENDOR, type: event.type, reason: event.reason });
    return { received: true, duplicate: false, outcome: 'unknownType' };
  }
  const stored = { vendor: VENDOR, room: event.roomId, digest: eventDigest(delivery.rawBody), eventType: event.type, at: event.at, receivedAt, change: event.change };
  // stored before anything else: once Zoom has its 2xx, the event must survive this process
  const first = await events.storeOnce(stored);
  await events.count(VENDOR, first ? 'received' : 'duplicates', receivedAt);
  if (event.change.kind !== 'connectivity') return { received: true, duplicate: !first, outcome: 'recorded' };
  // a duplicate applies too: its first copy may have been stored by a process that died before
  // applying it; the writes are conditional on the event time, so an applied one changes nothing again
  const { connected, issue, component } = event.change;
  await events.applyConnectivity({ vendor: VENDOR, room: event.roomId, ...(component ? { component } : {}) }, { connected, at: event.at, issue });
  const outcome = await applyToDevices(VENDOR, event.roomId, event.change, event.at);
  if (first || outcome === 'applied') await events.settle(stored, outcome);
  return { received: true, duplicate: !first, outcome: outcome === 'stale' && !first ? 'recorded' : outcome };
};
