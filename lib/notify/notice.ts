import { alarmId, type Alarm, type ClearReason, type Recipients, type Transition } from '#lib/alarms/types';
import { targetsOf } from './plan';
import type { Audience, Notice, NotifiedAlarm, NotifiedWatcher } from './types';

export const audienceOf = (recipients: Recipients): Audience => ({
  sendEmail: recipients.sendEmail,
  emails: [...recipients.emails],
  channelIds: [...(recipients.channelIds ?? [])],
});

export const notifiedAlarm = (alarm: Alarm, clearedAt?: string, reason?: string): NotifiedAlarm => ({
  id: alarmId(alarm),
  devicesn: alarm.devicesn,
  deviceid: alarm.deviceid,
  severity: alarm.severity,
  region: alarm.region,
  location: alarm.location,
  room: alarm.room,
  raisedAt: alarm.raisedAt,
  ...(clearedAt ? { clearedAt } : {}),
  ...(reason ? { reason } : {}),
});

/**
 * The notice of one transition, written with it (the evaluator hands every transition here),
 * or undefined when the watcher tells nobody. Its id is fixed by (watcher, device, raisedAt,
 * transition); `at`, the run, fixes the digest it goes into. `watcherType` is the watcher's
 * `type` ("offline"), empty when the watcher is gone.
 */
export const noticeFor = (
  transition: Transition,
  alarm: Alarm,
  recipients: Recipients,
  at: string,
  watcherType: string,
  reason?: ClearReason,
): Notice | undefined => {
  const audience = audienceOf(recipients);
  if (targetsOf(audience).length === 0) return undefined;
  const watcher: NotifiedWatcher = { id: alarm.watcherId, description: alarm.description ?? '', severity: alarm.severity, type: watcherType };
  return {
    id: `${alarmId(alarm)}:${alarm.raisedAt}:${transition}`,
    type: transition === 'raised' ? 'alarms.raised' : 'alarms.cleared',
    at,
    alarm: transition === 'cleared' ? notifiedAlarm(alarm, at, reason ?? 'resolved') : notifiedAlarm(alarm),
    watcher,
    audience,
    ...(reason ? { reason } : {}),
  };
};
