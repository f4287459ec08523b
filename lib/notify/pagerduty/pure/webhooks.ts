import { createHmac } from 'node:crypto';
import { sameSignature } from '#lib/shared/constantTime';
import { headerText } from '#lib/shared/header';
import { cutBetweenCharacters, stripInvisible } from '#lib/shared/text';

/*
 * PagerDuty's V3 webhooks (shared/vendors.md "Incident tools"): the signature that is their only
 * credential, the freshness window that refuses a replayed request, and what an incident event
 * says about one of our alarms. Pure: receive.ts acts on it.
 */

/** An event whose `occurred_at` is further than this from our clock is refused: a replay, or a clock far off. */
export const PAGERDUTY_EVENT_WINDOW_MS = 30 * 60_000;
/** PagerDuty's incident events are a few kilobytes; anything far larger is no event of theirs. */
export const PAGERDUTY_EVENT_MAX_BYTES = 64 * 1024;
/** Signatures read from one header at most (PagerDuty sends one per active secret: two while rotating). */
const MAX_SIGNATURES = 10;

const hmacHex = (secret: string, body: string) => createHmac('sha256', secret).update(body, 'utf8').digest('hex');

/** The `x-pagerduty-signature` of `rawBody` with one secret (the fake signs with it too). */
export const pagerdutySignature = (secret: string, rawBody: string): string => `v1=${hmacHex(secret, rawBody)}`;

/**
 * Whether one of the header's comma-separated `v1=<hex>` signatures is the body's with our secret,
 * each compared in constant time (how long a comparison takes says nothing of how much of a forgery
 * was right); several are accepted, as PagerDuty sends one per secret while a secret rotates.
 */
export const signatureHolds = (secret: string, rawBody: string, header: string | undefined): boolean => {
  if (!header) return false;
  const expected = pagerdutySignature(secret, rawBody);
  let holds = false;
  // every candidate is compared, also after a match: the time taken does not say which one held
  for (const given of header.split(',').slice(0, MAX_SIGNATURES)) if (sameSignature(given.trim(), expected)) holds = true;
  return holds;
};

/** What an incident event asks of us. */
export type IncidentEvent =
  | { kind: 'acknowledged' | 'resolved'; eventId: string; dedupKey: string; occurredAt: number; by: string }
  | { kind: 'other'; eventId: string; type: string; occurredAt: number; reason: string }
  | { kind: 'malformed'; reason: string };

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);
const record = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/**
 * Who acted, as `acknowledgedBy` names them: "PagerDuty user <name> <e-mail>" (a user reference's
 * `summary` is the name; its e-mail when the event carries one), "PagerDuty" for an automatic action.
 */
export const agentOf = (agent: unknown): string => {
  const a = record(agent);
  const name = visible(text(a?.summary) ?? text(a?.name));
  const email = visible(text(a?.email));
  if (!name && !email) return 'PagerDuty';
  return cutBetweenCharacters(`PagerDuty user ${[name, email ? `<${email}>` : undefined].filter(Boolean).join(' ')}`, AGENT_MAX);
};

const AGENT_MAX = 256;

/**
 * A name as anyone with a PagerDuty account may have written it, on one visible line: control
 * characters (a line break would forge a line of a mail or a log) and lone surrogates become
 * spaces; invisible and bidirectional characters (an override makes a name read as another) go,
 * as they go from vendor names; undefined when nothing visible is left.
 */
const visible = (value: string | undefined): string | undefined => {
  const cleaned = value === undefined ? undefined : stripInvisible(headerText(value)).replace(/ {2,}/g, ' ').trim();
  return cleaned || undefined;
};

/**
 * The incident event of a V3 webhook body: its type, when it happened, who did it and the
 * incident's dedup key (`incident_key`: the `dedup_key` of the trigger we sent, our alarm's id).
 */
export const readIncidentEvent = (body: unknown): IncidentEvent => {
  const event = record(record(body)?.event);
  if (!event) return { kind: 'malformed', reason: 'the body has no `event` object' };
  const type = text(event.event_type);
  const eventId = text(event.id);
  const occurredAt = Date.parse(text(event.occurred_at) ?? '');
  if (!type || !eventId) return { kind: 'malformed', reason: 'the event has no `event_type` or `id`' };
  if (Number.isNaN(occurredAt)) return { kind: 'malformed', reason: 'the event has no ISO 8601 `occurred_at`' };
  if (type !== 'incident.acknowledged' && type !== 'incident.resolved') return { kind: 'other', eventId, type, occurredAt, reason: 'only incident.acknowledged and incident.resolved are acted on' };
  const data = record(event.data);
  const dedupKey = text(data?.incident_key);
  if (!dedupKey) return { kind: 'other', eventId, type, occurredAt, reason: 'the incident has no incident_key (not one of our triggers)' };
  return { kind: type === 'incident.acknowledged' ? 'acknowledged' : 'resolved', eventId, dedupKey, occurredAt, by: agentOf(event.agent) };
};
