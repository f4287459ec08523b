import { acknowledgeAlarm } from '#lib/alarms/acknowledge';
import type { AlarmAnswer } from '#lib/alarms/query';
import * as alarms from '#lib/alarms/repository/alarms';
import { AlarmEntity } from '#lib/alarms/entities';
import { alarmId, parseAlarmId } from '#lib/alarms/types';
import type { AccessScope } from '#lib/shared/access';
import * as channels from '#lib/notify/repository/channels';
import { notifiedAlarm } from './pure/notice';
import type { Channel, Notice } from './types';

/**
 * Incident tools follow an alarm's acknowledgement (a ServiceNow incident moves to In Progress);
 * mail and webhook channels are told of raises and clears only, as before.
 */
const followsAcknowledgements = (channel: Channel | undefined): boolean => channel?.type === 'servicenow';

/**
 * Acknowledges an alarm (lib/alarms/acknowledge.ts) and leaves the notice of it on the alarm, for
 * the notifier to carry to the alarm's incident channels like any transition's (outbox: stored,
 * claimed, retried, in the delivery log). The notice is written after the acknowledgement, on
 * condition that the acknowledgement still stands; held (stored as suppressed, not sent) when the
 * alarm's raise was held by a silence or maintenance window, since its incident was never opened.
 */
export const acknowledgeAndTell = async (id: string, by: string, comment?: string, scope: AccessScope = [], ackUntil?: string): Promise<AlarmAnswer> => {
  const answer = await acknowledgeAlarm(id, by, comment, scope, ackUntil);
  const pair = parseAlarmId(id);
  if (pair && answer.acknowledgedAt) await tellAcknowledgement(pair, answer.acknowledgedAt);
  return answer;
};

const tellAcknowledgement = async (pair: { watcherId: string; devicesn: string }, acknowledgedAt: string): Promise<void> => {
  const item = await AlarmEntity.read(pair, { consistent: true });
  if (!item || item.state !== 'firing') return; // a pending alarm opened no incident yet
  const alarm = AlarmEntity.fromItem(item);
  const ack = alarm.acknowledgement;
  if (!ack || ack.acknowledgedAt !== acknowledgedAt) return; // replaced meanwhile: the later one tells
  const ids = [...new Set(alarm.notify.channelIds ?? [])];
  const followers = (await Promise.all(ids.map(async (channelId) => ((followsAcknowledgements(await channels.find(channelId))) ? channelId : undefined)))).filter(
    (channelId): channelId is string => channelId !== undefined,
  );
  if (followers.length === 0) return;
  const notice: Notice = {
    id: `${alarmId(alarm)}:${alarm.raisedAt}:acknowledged:${acknowledgedAt}`,
    type: 'alarms.acknowledged',
    at: acknowledgedAt,
    alarm: { ...notifiedAlarm(alarm), acknowledgedBy: ack.acknowledgedBy, acknowledgedAt, ...(ack.ackComment === undefined ? {} : { ackComment: ack.ackComment }) },
    watcher: { id: alarm.watcherId, description: alarm.description ?? '', severity: alarm.severity, type: '' },
    audience: { sendEmail: false, emails: [], channelIds: followers },
    ...(alarm.notified?.raised === 'suppressed' ? { silenced: true } : {}),
  };
  await alarms.appendAcknowledgementNotice(pair, alarm.raisedAt, acknowledgedAt, notice);
};
