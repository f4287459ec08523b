import { timeoutSignal } from '#lib/shared/timer';
import type { AttemptOutcome } from '../pure/retry';
import type { Digest } from '../types';
import { eventOf, PAGERDUTY_EVENTS_URL } from './pure/events';

/** PagerDuty gets this long to answer an event; past it the delivery is retried. */
export const PAGERDUTY_TIMEOUT_MS = 5_000;

/**
 * Events one routing key is sent per minute from one process at most: PagerDuty takes about 120 and
 * answers 429 beyond, so a burst is paced here (the rest waits for a retry) rather than refused there.
 */
export const EVENTS_PER_MINUTE = 100;
const MINUTE_MS = 60_000;

/** When each routing key (by its last characters and length: the key itself is not kept) was sent events, the last minute. */
const sent = new Map<string, number[]>();

/** Whether one more event to `routingKey` stays under the pace now; counts it when it does. */
export const pace = (routingKey: string, now = Date.now(), limit = EVENTS_PER_MINUTE): boolean => {
  const key = `${routingKey.length}:${routingKey.slice(-6)}`;
  const recent = (sent.get(key) ?? []).filter((at) => at > now - MINUTE_MS);
  if (recent.length >= limit) {
    sent.set(key, recent);
    return false;
  }
  sent.set(key, [...recent, now]);
  return true;
};

const retryAfter = (header: string | null): number | undefined => {
  const seconds = header === null ? Number.NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
};

/**
 * Sends the event of a PagerDuty delivery to the Events API (PAGERDUTY_EVENTS_URL, set by the
 * operator, never by a client: so it is not checked as a webhook URL is). 202 is delivered; 429
 * and 5xx are retried by the notifier's backoff (a `Retry-After` honoured), other 4xx fail. Never
 * throws: every way it can end is an outcome, and the routing key is in no reason.
 */
export const sendPagerDutyEvent = async (request: { digest: Digest; routingKey: string; timeoutMs: number; env?: NodeJS.ProcessEnv }): Promise<AttemptOutcome> => {
  const env = request.env ?? process.env;
  const event = eventOf(request.digest, request.routingKey, env.ALARM_LINK_URL);
  if (!event) return { kind: 'refused', reason: `a ${request.digest.type} notification is not sent to PagerDuty` };
  if (!pace(request.routingKey)) return { kind: 'unreachable', reason: `held back: ${EVENTS_PER_MINUTE} events to this routing key in the last minute` };
  try {
    const response = await fetch(env.PAGERDUTY_EVENTS_URL || PAGERDUTY_EVENTS_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'device-monitoring-pagerduty/1' },
      body: JSON.stringify(event),
      signal: timeoutSignal(request.timeoutMs),
      redirect: 'manual',
    });
    await response.arrayBuffer().catch(() => undefined);
    const after = retryAfter(response.headers.get('retry-after'));
    return { kind: 'answered', status: response.status, ...(after === undefined ? {} : { retryAfterSeconds: after }) };
  } catch (error) {
    if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) return { kind: 'timeout' };
    return { kind: 'unreachable', reason: error instanceof Error ? error.message : String(error) };
  }
};
