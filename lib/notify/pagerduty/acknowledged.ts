import * as alarms from '#lib/alarms/repository/alarms';
import { alarmId, type Acknowledgement, type AlarmKey } from '#lib/alarms/types';
import * as channels from '#lib/notify/repository/channels';
import { notifiedAlarm } from '../pure/notice';
import type { Notice } from '../types';

/**
 * The notice that tells the PagerDuty channels of a firing alarm it was acknowledged here, or
 * undefined when none is to be told: the alarm is not firing (a pending one never triggered), its
 * watcher names no PagerDuty channel, or the acknowledgement came from PagerDuty (no echo: the
 * caller leaves this out then). Written with the acknowledgement, so it is sent once, by the notifier.
 */
export const acknowledgedNotice = async (pair: AlarmKey, ack: Acknowledgement): Promise<Notice | undefined> => {
  const [alarm] = await alarms.openAmong([pair]);
  if (!alarm || alarm.state !== 'firing') return undefined;
  const ids = [...new Set(alarm.notify.channelIds ?? [])];
  if (ids.length === 0) return undefined;
  const found = await Promise.all(ids.map((id) => channels.find(id)));
  const incidentTools = found.flatMap((channel) => (channel?.type === 'pagerduty' ? [channel.id] : []));
  if (incidentTools.length === 0) return undefined;
  return {
    id: `${alarmId(alarm)}:${alarm.raisedAt}:acknowledged:${ack.acknowledgedAt}`,
    type: 'alarms.acknowledged',
    at: ack.acknowledgedAt,
    alarm: { ...notifiedAlarm(alarm), acknowledgedBy: ack.acknowledgedBy, acknowledgedAt: ack.acknowledgedAt },
    watcher: { id: alarm.watcherId, description: alarm.description ?? '', severity: alarm.severity, type: '' },
    audience: { sendEmail: false, emails: [], channelIds: incidentTools },
  };
};
