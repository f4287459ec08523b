import { mailFor } from './mail';
import type { Acknowledgement, Alarm, ClearReason, Delivery, Mail, Recipients, Transition } from './types';

/**
 * Whether an alarm's notifications go out: a matching active silence suppresses its raise and
 * clear notifications; an acknowledgement stops reminders (it is never re-notified) but not
 * the raise or clear themselves. Notifiers (mail, digests, webhooks) ask this one function.
 */
export const notificationGate = (
  alarm: { acknowledgement?: Acknowledgement | undefined },
  silencedBy: readonly string[],
): { suppressed: boolean; acknowledged: boolean; remind: boolean } => {
  const suppressed = silencedBy.length > 0;
  const acknowledged = alarm.acknowledgement !== undefined;
  return { suppressed, acknowledged, remind: !suppressed && !acknowledged };
};

/** The mail of one transition (none when silenced or nobody asked) and where it is recorded as gone. */
export const transitionNotice = (
  transition: Transition,
  alarm: Alarm & { acknowledgement?: Acknowledgement | undefined },
  notify: Recipients,
  at: string,
  silencedBy: readonly string[],
  reason?: ClearReason,
): { mail: Mail | undefined; delivery: Delivery } => {
  if (notificationGate(alarm, silencedBy).suppressed) return { mail: undefined, delivery: 'suppressed' };
  const mail = mailFor(transition, alarm, notify, at, reason);
  return { mail, delivery: mail ? [...mail.to] : [] };
};
