import type { Mailer } from '#lib/notify/mail/types';
import { historyRecord } from '#lib/alarms/pure/history';
import { alarmId, type AlarmKey } from '#lib/alarms/types';
import * as alarmHistory from '#lib/alarms/repository/alarmHistory';
import * as alarms from '#lib/alarms/repository/alarms';
import { logger } from '#lib/shared/log';
import { notifier, type NotificationSummary } from '#lib/notify/notifier';
import { mapConcurrent, writesInFlight } from '#lib/shared/concurrency';
import { isDeadlineExceeded, withDeadline } from '#lib/shared/deadline';
import { historyExpiry } from '#lib/shared/retention';
import type { Applied } from './applyPlan';

/*
 * What the two passes of the alarm engine (fullPass.ts, queuePass.ts) share: their summary, and
 * the frame every pass runs its own work in (leftover notifications and history first, its
 * work, then the notifications and history records it produced, all within its deadline).
 */

export interface EvaluationSummary {
  raised: number;
  /** New pending alarms (their condition must hold pendingSeconds before they fire). */
  pending: number;
  /** Pending alarms whose condition stopped before they fired. */
  dropped: number;
  cleared: number;
  /** Mails delivered (digests to addresses and e-mail channels). */
  mailed: number;
  /** What the notification engine did this run, for the run's log line and metrics. */
  notifications: NotificationSummary;
  /** Open alarms whose severity, room or description followed a change. */
  updated: number;
  roomsRecomputed: number;
  /** False when the time budget ran out: the next run continues from the stored state. */
  complete: boolean;
  /** Whether this run included the full reconciliation pass. */
  reconciled?: boolean;
}

/**
 * Writes the history record of every cleared alarm still waiting for one: those the run just
 * cleared (`cleared`, carried forward: the waiting index lags, DESIGN §3) and those the index
 * shows (a run cut short leaves some). Each record is idempotent, so one seen twice is harmless.
 */
const writeHistory = async (inTime: () => boolean, cleared: readonly alarms.ClearedAlarm[] = []): Promise<boolean> => {
  const seen = await alarms.awaitingHistory();
  const waiting = [...new Map([...cleared, ...seen].map((alarm) => [`${alarmId(alarm)}@${alarm.clearedAt}`, alarm])).values()];
  if (waiting.length === 0) return true;
  if (!inTime()) return false;
  // the records first, in batches (idempotent), then each alarm leaves the waiting list
  await alarmHistory.writeAll(waiting.map((alarm) => ({ record: historyRecord(alarm), expiresAt: historyExpiry(alarm.clearedAt) })));
  const done = await mapConcurrent(waiting, writesInFlight(), async (alarm) => {
    if (!inTime()) return false;
    await alarms.historyWritten(alarm);
    return true;
  });
  return done.every(Boolean);
};

/** Counts of what a set of plan executions changed. */
export const tally = (applied: readonly Applied[]) => ({
  raised: applied.reduce((n, a) => n + a.raised.length, 0),
  pending: applied.reduce((n, a) => n + a.pending.length, 0),
  dropped: applied.reduce((n, a) => n + a.dropped.length, 0),
  cleared: applied.reduce((n, a) => n + a.cleared.length, 0),
  updated: applied.reduce((n, a) => n + a.updated.length, 0),
  notices: applied.reduce((n, a) => n + a.notices, 0),
  noticed: applied.flatMap((a) => a.noticed),
  clearedNow: applied.flatMap((a) => a.clearedAlarms),
});

export interface PassOptions {
  mailer: Mailer;
  deadline: number;
  holding?: () => boolean;
}
type PassCounts = Omit<EvaluationSummary, 'mailed' | 'notifications' | 'complete' | 'reconciled'> & { notices?: number; noticed?: AlarmKey[]; clearedNow?: alarms.ClearedAlarm[] };
export const noCounts = (): PassCounts => ({ raised: 0, pending: 0, dropped: 0, cleared: 0, updated: 0, roomsRecomputed: 0 });

/**
 * What every pass does around its own work: first what an interrupted run left (notifications
 * within a third of the budget, so evaluating is not starved; history records), then `work`,
 * then the notifications and history records it produced, if it produced any (the alarms it wrote
 * notices on are handed to the notifier, never found again through the lagging notice index) (repeats and
 * retries that fell due meanwhile wait for the next run). `inTime` stops between writes at the
 * deadline, or as soon as the lease may be someone else's. The deadline also bounds every store
 * call of the pass (lib/shared/deadline.ts): one refused or cut short ends the pass where it is,
 * as a crash would, and it answers what it finished so far with `complete: false` (`work` adds
 * to `counts` as it goes); the next run carries on from the stored state.
 */
export const pass = async (
  { mailer, deadline, holding = () => true }: PassOptions,
  work: (inTime: () => boolean, counts: PassCounts) => Promise<boolean>,
): Promise<EvaluationSummary> => {
  const inTime = () => Date.now() < deadline && holding();
  const notifications = notifier({ mailer, deadline });
  const counts = noCounts();
  // notifications never fail the pass: what one phase could not send stays due for the next run
  const notify = async (phase: () => Promise<NotificationSummary>): Promise<NotificationSummary> => {
    try {
      return await phase();
    } catch (error) {
      if (isDeadlineExceeded(error)) throw error;
      logger.error('notifications failed; the pass goes on and the next run tries again', { reason: error instanceof Error ? error.message : String(error) });
      return { ...notifications.summary, complete: false };
    }
  };
  try {
    return await withDeadline(deadline, async () => {
      const earlier = await notify(() => notifications.run(Date.now() + (deadline - Date.now()) / 3));
      const earlierHistory = await writeHistory(inTime);
      const complete = await work(inTime, counts);
      const { notices = 0, noticed = [], clearedNow = [], ...done } = counts;
      // the pass hands over the alarms it wrote notices on: the notice index may not show them yet
      const told = notices > 0 ? await notify(() => notifications.run(undefined, noticed)) : earlier;
      const history = done.cleared + done.dropped > 0 ? await writeHistory(inTime, clearedNow) : true;
      return { ...done, mailed: told.mailed, notifications: told, complete: complete && told.complete && earlierHistory && history && inTime() };
    });
  } catch (error) {
    if (!isDeadlineExceeded(error)) throw error;
    const { notices: _notices, noticed: _noticed, clearedNow: _clearedNow, ...done } = counts;
    return { ...done, mailed: notifications.summary.mailed, notifications: { ...notifications.summary, complete: false }, complete: false };
  }
};
