import { noticeFor } from '#lib/notify/notice';
import { targetsOf } from '#lib/notify/plan';
import type { Notice } from '#lib/notify/types';
import type { Acknowledgement, Alarm, ClearReason, Delivery, Recipients, Transition } from './types';

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
  alarm: Alarm & { acknowledgement?: Acknowledgement | undefined },
  notify: Recipients,
  at: string,
  silencedBy: readonly string[],
  reason?: ClearReason,
  watcherType = '',
): { notice: Notice | undefined; delivery: Delivery } => {
  const notice = noticeFor(transition, alarm, notify, at, watcherType, reason);
  if (notificationGate(alarm, silencedBy).suppressed) return { notice: notice && { ...notice, silenced: true }, delivery: 'suppressed' };
  return { notice, delivery: notice ? destinations(notice) : [] };
};
