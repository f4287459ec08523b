import { SEVERITIES } from '#lib/watchers/types';
import { alarmId, type Alarm, type ClearReason, type Mail, type Recipients, type Transition } from './types';

/**
 * The mail of one transition, or undefined when the watcher asked for none. Its id is fixed by
 * (watcher, device, raisedAt, transition): the same transition always makes the same mail id.
 */
export const mailFor = (
  transition: Transition,
  alarm: Alarm,
  notify: Recipients,
  at: string,
  reason?: ClearReason,
): Mail | undefined => {
  if (!notify.sendEmail || notify.emails.length === 0) return undefined;
  const level = SEVERITIES[alarm.severity];
  const where = `${alarm.region} / ${alarm.location} / ${alarm.room}`;
  const what = alarm.description || `watcher ${alarm.watcherId}`;
  const lines = [
    `Alarm ${transition}: ${what}`,
    '',
    `Severity: ${level}`,
    `Device: ${alarm.devicesn} (${alarm.deviceid})`,
    `Room: ${where}`,
    `Watcher: ${alarm.watcherId}`,
    `Raised at: ${alarm.raisedAt}`,
    ...(transition === 'cleared' ? [`Cleared at: ${at}`, `Reason: ${reason ?? 'resolved'}`] : []),
  ];
  return {
    id: `${alarmId(alarm)}:${alarm.raisedAt}:${transition}`,
    to: [...notify.emails],
    subject: `[${level}] ${transition === 'raised' ? 'RAISED' : 'CLEARED'}: ${what} on ${alarm.devicesn} (${where})`,
    text: lines.join('\n'),
  };
};
