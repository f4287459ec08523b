import * as alarms from '#lib/alarms/repository/alarms';
import type { AlarmView } from '#lib/alarms/repository/alarms';
import * as ackLapses from '#lib/alarms/repository/ackLapses';
import { Invalid, NotFound } from '#lib/shared/errors';
import { isUnscoped, type AccessScope } from '#lib/shared/access';
import { areaWithinAccessScope } from '#lib/shared/scopeWithin';
import { withSilences, type AlarmAnswer } from './query';
import { parseAlarmId, type AckEvent, type Acknowledgement, type AlarmKey } from './types';

const notFound = (id: string) => new NotFound(`Alarm ${id} not found`);

const pairOf = (id: string) => {
  const pair = parseAlarmId(id);
  if (!pair) throw notFound(id);
  return pair;
};

/** Times a scoped acknowledgement reads the alarm again when its device moved between the read and the write. */
const MOVES_FOLLOWED = 3;

/**
 * Writes (or removes) the acknowledgement. The unscoped write at once, as before scopes. A scoped
 * caller (DESIGN §5) first reads the alarm: one whose device's place lies outside its scope is
 * 404, as if unknown; the write then holds only while the alarm is still at the place it checked.
 */
/**
 * The notice that tells others of an acknowledgement (incident tools: lib/notify/pagerduty), written with it
 * in one update (outbox); undefined when nobody is to be told. Given by the caller: the notifier is above this domain.
 */
export type AckTeller = (pair: AlarmKey, ack: Acknowledgement) => Promise<object | undefined>;

const acknowledgeWithin = async (id: string, ack: Acknowledgement | undefined, event: AckEvent, scope: AccessScope, tell?: AckTeller, firstOnly = false): Promise<AlarmView> => {
  const pair: AlarmKey = pairOf(id);
  // read before the write, once: the notice goes in the same write as the acknowledgement
  const notice = ack && tell ? await tell(pair, ack) : undefined;
  // a lapse is timed before the acknowledgement it times is written (for a scoped caller, once its scope allows)
  const timed = ack?.ackUntil ? () => ackLapses.schedule({ ...pair, acknowledgedAt: ack.acknowledgedAt, ackUntil: ack.ackUntil! }) : async () => {};
  if (isUnscoped(scope)) {
    await timed();
    return alarms.acknowledge(pair, ack, event, notice, firstOnly);
  }
  for (let attempt = 0; attempt < MOVES_FOLLOWED; attempt++) {
    const alarm = await alarms.get(pair);
    if (!alarm || !areaWithinAccessScope(scope, alarm)) throw notFound(id);
    if (attempt === 0) await timed();
    const written = await alarms.acknowledgeAt(pair, ack, alarm, event, notice, firstOnly);
    if (written) return written;
  }
  throw notFound(id); // moving faster than it can be acknowledged: not reliably in the scope
};

/** How far ahead `ackUntil` may lie (docs/guide/rules/alarms.md "An acknowledgement ends with its alarm, or at an optional ackUntil of at most 30 days"). */
const MAX_ACK_UNTIL_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** `ackUntil` as stored (UTC, milliseconds), or 422 when it is not in the future or more than 30 days ahead. */
const ackUntilOf = (ackUntil: string, now: number): string => {
  const at = Date.parse(ackUntil);
  const problem = (message: string) => new Invalid(message, [{ field: 'body.ackUntil', message }]);
  if (Number.isNaN(at)) throw problem('ackUntil must be an ISO 8601 date-time');
  if (at <= now) throw problem('ackUntil must lie in the future');
  if (at > now + MAX_ACK_UNTIL_DAYS * DAY_MS) throw problem(`ackUntil must lie at most ${MAX_ACK_UNTIL_DAYS} days ahead`);
  return new Date(at).toISOString();
};

/**
 * Acknowledges an open (pending or firing) alarm: 404 unknown or outside the scope, 409 no longer
 * open, 422 an `ackUntil` not ahead or too far. Acknowledging again replaces it. With `ackUntil`,
 * its lapse is timed before it is written (lib/alarms/repository/ackLapses.ts), so none stands untimed.
 */
export const acknowledgeAlarm = async (
  id: string,
  by: string,
  comment?: string,
  scope: AccessScope = [],
  ackUntil?: string,
  /** Who else is told (incident tools); none for an acknowledgement that came from one of them (no echo). */
  tell?: AckTeller,
  /** Only when none stands: 409 AlreadyAcknowledged otherwise (an incident tool's acknowledgement, delivered more than once). */
  firstOnly = false,
): Promise<AlarmAnswer> => {
  const now = Date.now();
  const acknowledgedAt = new Date(now).toISOString();
  const until = ackUntil === undefined ? undefined : ackUntilOf(ackUntil, now);
  const ack: Acknowledgement = { acknowledgedAt, acknowledgedBy: by, ...(comment !== undefined ? { ackComment: comment } : {}), ...(until ? { ackUntil: until } : {}) };
  const event: AckEvent = { action: 'ack', at: acknowledgedAt, by, ...(comment !== undefined ? { comment } : {}), ...(until ? { ackUntil: until } : {}) };
  const alarm = await acknowledgeWithin(id, ack, event, scope, tell, firstOnly);
  return (await withSilences([alarm]))[0]!;
};

/** Removes the acknowledgement of an open alarm (also when it had none), recorded as `by`'s: 404 unknown or outside the scope, 409 no longer open. */
export const unacknowledgeAlarm = async (id: string, scope: AccessScope = [], by = 'api-key'): Promise<AlarmAnswer> => {
  const alarm = await acknowledgeWithin(id, undefined, { action: 'unack', at: new Date().toISOString(), by }, scope);
  return (await withSilences([alarm]))[0]!;
};
