import { alarmId, type Acknowledgement, type Alarm, type ClearReason, type NotificationOutcome, type Recipients, type SuppressedBy, type Transition } from '#lib/alarms/types';
import { targetsOf } from './plan';
import type { Audience, Notice, NotifiedAlarm, NotifiedWatcher } from '../types';

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
    type: `alarms.${transition}`,
    at,
    alarm: transition === 'cleared' ? notifiedAlarm(alarm, at, reason ?? 'resolved') : notifiedAlarm(alarm),
    watcher,
    audience,
    ...(reason ? { reason } : {}),
  };
};

/**
 * Whether an alarm's notifications go out: a matching active silence suppresses its raise and
 * clear notifications, and so does a parent condition the alarm was raised under while it is
 * marked `suppressedBy` (docs/guide/rules/alarms.md "A suppressed alarm is marked `suppressedBy` when it is raised, judged from the rollups"); an acknowledgement stops reminders (it is never
 * re-notified) but not the raise or clear themselves. Notifiers (mail, digests, webhooks) ask
 * this one function.
 */
export const notificationGate = (
  alarm: { acknowledgement?: Acknowledgement | undefined; suppressedBy?: SuppressedBy | undefined },
  silencedBy: readonly string[],
): { suppressed: boolean; acknowledged: boolean; remind: boolean } => {
  const suppressed = silencedBy.length > 0 || alarm.suppressedBy !== undefined;
  const acknowledged = alarm.acknowledgement !== undefined;
  return { suppressed, acknowledged, remind: !suppressed && !acknowledged };
};

/** Where a notice goes, as the alarm history records it: addresses, and `channel:<id>` for channels. */
const destinations = (notice: Notice): string[] =>
  targetsOf(notice.audience).flatMap((target) => (target.kind === 'email' ? target.to : [`channel:${target.channelId}`]));

/**
 * The notice of one transition (lib/notify makes it into digests) and where it is recorded as
 * gone. A silenced transition still leaves a notice, marked `silenced`: its deliveries are
 * stored as `suppressed` (the channels' delivery logs show them) and nothing is sent.
 */
export const transitionNotice = (
  transition: Transition,
  alarm: Alarm & { acknowledgement?: Acknowledgement | undefined; suppressedBy?: SuppressedBy | undefined },
  notify: Recipients,
  at: string,
  silencedBy: readonly string[],
  reason?: ClearReason,
  watcherType = '',
): { notice: Notice | undefined; delivery: NotificationOutcome } => {
  const notice = noticeFor(transition, alarm, notify, at, watcherType, reason);
  if (notificationGate(alarm, silencedBy).suppressed) return { notice: notice && { ...notice, silenced: true }, delivery: 'suppressed' };
  return { notice, delivery: notice ? destinations(notice) : [] };
};
