import { acknowledgeAlarm } from '#lib/alarms/acknowledge';
import * as alarms from '#lib/alarms/repository/alarms';
import { parseAlarmId } from '#lib/alarms/types';
import { Invalid, PayloadTooLarge, Unauthorized } from '#lib/shared/errors';
import { logger } from '#lib/shared/log';
import { PAGERDUTY_EVENT_MAX_BYTES, PAGERDUTY_EVENT_WINDOW_MS, readIncidentEvent, signatureHolds } from './pure/webhooks';

/*
 * PagerDuty's webhook receiver: a request is PagerDuty's when one of its signatures holds and its
 * event is fresh; then an acknowledgement there acknowledges our alarm, as a service principal
 * that may only acknowledge (and is audited as such), and is not sent back to PagerDuty; a
 * resolution there of an alarm whose device still fails leaves it firing and says so in its history.
 */

/** Who acts for PagerDuty: a service that holds `alarms:ack` and nothing else, on the whole fleet (its incidents are ours). */
export const PAGERDUTY_PRINCIPAL = { kind: 'service', username: 'pagerduty', permissions: ['alarms:ack'], scope: [] } as const;

export interface PagerDutyDelivery {
  rawBody: string;
  body: unknown;
  signature: string | undefined;
  /** PAGERDUTY_WEBHOOK_SECRET; undefined when none is configured (every request is refused). */
  secret: string | undefined;
  now?: number;
}

export interface PagerDutyAnswer {
  received: true;
  outcome: 'acknowledged' | 'alreadyAcknowledged' | 'stillFiring' | 'notOpen' | 'unknownAlarm' | 'ignored';
  alarmId?: string;
}

const refuse = (reason: string): never => {
  logger.warn('pagerduty event refused', { reason });
  throw new Unauthorized(`Refused: ${reason}`);
};

export const receivePagerDutyEvent = async (delivery: PagerDutyDelivery): Promise<PagerDutyAnswer> => {
  const now = delivery.now ?? Date.now();
  if (Buffer.byteLength(delivery.rawBody) > PAGERDUTY_EVENT_MAX_BYTES) throw new PayloadTooLarge(PAGERDUTY_EVENT_MAX_BYTES);
  if (!delivery.secret) return refuse('no webhook secret is configured (PAGERDUTY_WEBHOOK_SECRET)');
  if (!delivery.signature) return refuse('the x-pagerduty-signature header is missing');
  if (!signatureHolds(delivery.secret, delivery.rawBody, delivery.signature)) return refuse('no x-pagerduty-signature matches the body');
  const event = readIncidentEvent(delivery.body);
  if (event.kind === 'malformed') throw new Invalid(`Not a PagerDuty V3 webhook event: ${event.reason}`, [{ field: 'body.event', message: event.reason }]);
  if (Math.abs(now - event.occurredAt) > PAGERDUTY_EVENT_WINDOW_MS) {
    return refuse(`the event's occurred_at is more than ${PAGERDUTY_EVENT_WINDOW_MS / 60_000} minutes from now (a replayed or delayed request)`);
  }
  if (event.kind === 'other') {
    logger.info('pagerduty event not acted on', { type: event.type, reason: event.reason });
    return { received: true, outcome: 'ignored' };
  }
  const pair = parseAlarmId(event.dedupKey);
  const alarm = pair ? await alarms.get(pair) : undefined;
  if (!pair || !alarm) return { received: true, outcome: 'unknownAlarm' };
  const alarmId = event.dedupKey;
  if (!alarm.open) return { received: true, outcome: 'notOpen', alarmId };
  if (event.kind === 'resolved') {
    // our alarm clears when its device recovers, not when someone closes the incident: it stays, and its history says so
    const comment = `resolved in PagerDuty by ${event.by}; the device still fails, so the alarm stays firing`;
    // noted at PagerDuty's time of the event, so a redelivery of it is found noted and not noted again
    // (retries would otherwise fill the alarm's bounded history and crowd out what happens later)
    const note = { action: 'note' as const, at: new Date(event.occurredAt).toISOString(), by: PAGERDUTY_PRINCIPAL.username, comment };
    if (!(await alarms.hasEvent(pair, note))) await alarms.noteEvent(pair, alarm.raisedAt, note);
    return { received: true, outcome: 'stillFiring', alarmId };
  }
  // a delivery PagerDuty repeats, or an acknowledgement that went out from here, changes nothing again
  if (alarm.acknowledgedAt) return { received: true, outcome: 'alreadyAcknowledged', alarmId };
  try {
    // no teller: an acknowledgement from PagerDuty is not sent back to it; first only: copies of
    // one delivery racing past the check above record one acknowledgement, not one each
    await acknowledgeAlarm(alarmId, event.by, 'acknowledged in PagerDuty', PAGERDUTY_PRINCIPAL.scope, undefined, undefined, true);
  } catch (error) {
    if (error instanceof alarms.AlreadyAcknowledged) return { received: true, outcome: 'alreadyAcknowledged', alarmId };
    if (error instanceof Error && /no longer open|not found/.test(error.message)) return { received: true, outcome: 'notOpen', alarmId };
    throw error;
  }
  return { received: true, outcome: 'acknowledged', alarmId };
};
