import { acknowledgeAlarm } from '#lib/alarms/acknowledge';
import type { AlarmAnswer } from '#lib/alarms/query';
import * as alarms from '#lib/alarms/repository/alarms';
import { alarmId, type Acknowledgement, type AlarmKey } from '#lib/alarms/types';
import type { AccessScope } from '#lib/shared/access';
import * as channels from '#lib/notify/repository/channels';
import { notifiedAlarm } from './pure/notice';
import type { Channel, Notice } from './types';

/**
 * Incident tools follow an alarm's acknowledgement (a PagerDuty incident is acknowledged, a
 * ServiceNow incident moves to In Progress); mail and webhook channels are told of raises and
 * clears only, as before.
 */
const followsAcknowledgements = (channel: Channel | undefined): channel is Channel => channel?.type === 'pagerduty' || channel?.type === 'servicenow';

/**
 * The notice that tells the incident channels of a firing alarm it was acknowledged here, or
 * undefined when none is to be told: the alarm is not firing (a pending one opened no incident),
 * its watcher names no incident channel, or the acknowledgement came from PagerDuty itself (no
 * echo: that caller leaves this teller out). It is written in the acknowledgement's own update,
 * so the acknowledgement and its notice are stored together or not at all, and the notifier
 * carries it like any transition's (outbox: claimed, retried, in the delivery log). Held (stored
 * as suppressed, not sent) when the alarm's raise was held by a silence or maintenance window,
 * since its incident was never opened.
 */
export const acknowledgedNotice = async (pair: AlarmKey, ack: Acknowledgement): Promise<Notice | undefined> => {
  const [alarm] = await alarms.openAmong([pair]);
  if (!alarm || alarm.state !== 'firing') return undefined;
  const ids = [...new Set(alarm.notify.channelIds ?? [])];
  if (ids.length === 0) return undefined;
  const found = await Promise.all(ids.map((id) => channels.find(id)));
  const followers = found.filter(followsAcknowledgements).map((channel) => channel.id);
  if (followers.length === 0) return undefined;
  return {
    id: `${alarmId(alarm)}:${alarm.raisedAt}:acknowledged:${ack.acknowledgedAt}`,
    type: 'alarms.acknowledged',
    at: ack.acknowledgedAt,
    alarm: { ...notifiedAlarm(alarm), acknowledgedBy: ack.acknowledgedBy, acknowledgedAt: ack.acknowledgedAt, ...(ack.ackComment === undefined ? {} : { ackComment: ack.ackComment }) },
    watcher: { id: alarm.watcherId, description: alarm.description ?? '', severity: alarm.severity, type: '' },
    audience: { sendEmail: false, emails: [], channelIds: followers },
    ...(alarm.notified?.raised === 'suppressed' ? { silenced: true } : {}),
  };
};

/** Acknowledges an alarm here (lib/alarms/acknowledge.ts) and tells its incident channels, in the same write. */
export const acknowledgeAndTell = (id: string, by: string, comment?: string, scope: AccessScope = [], ackUntil?: string): Promise<AlarmAnswer> =>
  acknowledgeAlarm(id, by, comment, scope, ackUntil, acknowledgedNotice);
