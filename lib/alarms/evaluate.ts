import { alarmHistory } from '#lib/db/alarmHistory';
import { alarms } from '#lib/db/alarms';
import { devices } from '#lib/db/devices';
import { intervals } from '#lib/db/intervals';
import { rooms } from '#lib/db/rooms';
import { silences } from '#lib/db/silences';
import { watchers } from '#lib/db/watchers';
import { mapConcurrent } from '#lib/shared/concurrency';
import { placeKey } from '#lib/devices/plan';
import type { Place } from '#lib/devices/types';
import { logger } from '#lib/log';
import { notifier, type NotificationSummary } from '#lib/notify/notifier';
import { historyRecord } from './history';
import { withLease } from './lease';
import type { Mailer } from './mailer';
import { transitionNotice } from './notification';
import { planAlarms, roomsToRecompute } from './plan';
import { dueAt, evaluatorSettings, historyExpiry } from './settings';

export interface EvaluationSummary {
  raised: number;
  /** New pending alarms (their condition must hold pendingSeconds before they fire). */
  pending: number;
  /** Pending alarms whose condition stopped before they fired. */
  dropped: number;
  cleared: number;
  /** Mails delivered (digests to addresses and e-mail channels). */
  mailed: number;
  /** What the notification engine did this run (issue 16). */
  notifications: NotificationSummary;
  /** Open alarms whose severity, room or description followed a change. */
  updated: number;
  roomsRecomputed: number;
  /** False when the time budget ran out: the next run continues from the stored state. */
  complete: boolean;
}

const WRITES_IN_FLIGHT = 8;

/** Writes the history record of every cleared alarm still waiting for one (a run cut short leaves some). */
const writeHistory = async (inTime: () => boolean): Promise<boolean> => {
  const waiting = await alarms.awaitingHistory();
  const done = await mapConcurrent(waiting, WRITES_IN_FLIGHT, async (alarm) => {
    if (!inTime()) return false;
    await alarmHistory.write(historyRecord(alarm), historyExpiry(alarm.clearedAt));
    await alarms.historyWritten(alarm);
    return true;
  });
  return done.every(Boolean);
};

/**
 * One evaluation (DESIGN D6): notifications left over by an interrupted run, then every active
 * watcher against the devices it targets, alarm writes (each transition's notice written in
 * the same item write), device severities, room aggregates, and the new notifications (one
 * digest per watcher and run: lib/notify, handed the transitions as notices). Every step
 * is idempotent and re-derived from stored state, so a run cut short by `deadline` (or a
 * crash) is finished by the next one. Runs stop between writes, never in the middle of one.
 */
export const evaluateAlarms = async ({ mailer, deadline, holding = () => true }: { mailer: Mailer; deadline: number; holding?: () => boolean }): Promise<EvaluationSummary> => {
  // stop between writes at the deadline, or as soon as the lease may be someone else's
  const inTime = () => Date.now() < deadline && holding();
  const summary = { raised: 0, pending: 0, dropped: 0, cleared: 0, updated: 0, roomsRecomputed: 0 };
  const notifications = notifier({ mailer, deadline });
  // what an interrupted run left, within a third of the budget: evaluating must not starve
  await notifications.run(Date.now() + (deadline - Date.now()) / 3);
  const earlierHistory = await writeHistory(inTime);

  const at = new Date().toISOString();
  const [watcherList, inventory, open, silenceList] = await Promise.all([watchers.list(), devices.index(), alarms.open(), silences.current(at)]);
  const plan = planAlarms({ watchers: watcherList, devices: inventory, open, now: at, silences: silenceList });
  const typeOf = new Map(watcherList.map((w) => [w.id, w.type]));
  if (plan.invalidWatchers.length) logger.warn('watchers with invalid conditions match nothing', { watchers: plan.invalidWatchers });

  const step = async <T>(items: readonly T[], write: (item: T) => Promise<boolean>): Promise<number> => {
    const done = await mapConcurrent(items, WRITES_IN_FLIGHT, async (item) => inTime() && (await write(item)));
    return done.filter(Boolean).length;
  };
  summary.raised = await step(plan.raise, ({ alarm, fromPending, silencedBy }) => {
    const { notice, delivery } = transitionNotice('raised', alarm, alarm.notify, at, silencedBy, undefined, typeOf.get(alarm.watcherId));
    return alarms.raise(alarm, notice, delivery, fromPending);
  });
  summary.pending = await step(plan.pend, (alarm) => alarms.pend(alarm));
  summary.dropped = await step(plan.drop, (alarm) => alarms.drop(alarm, at, historyExpiry(at)));
  summary.cleared = await step(plan.clear, ({ alarm, reason, notify, silencedBy }) => {
    const { notice, delivery } = transitionNotice('cleared', alarm, notify, at, silencedBy, reason, typeOf.get(alarm.watcherId));
    return alarms.clear(alarm, at, reason, historyExpiry(at), notice, delivery);
  });
  summary.updated = await step(plan.update, (alarm) => alarms.update(alarm));
  await step(plan.severities, ({ device, severity }) => devices.setAlarmSeverity(device, severity));

  // the rooms whose devices changed, and any room whose stored status disagrees (heals lost writes)
  const touched = new Map<string, Place>(plan.severities.map(({ device }) => [placeKey(device.details), device.details]));
  for (const room of roomsToRecompute(await rooms.inScope({}), inventory, plan.worst)) touched.set(placeKey(room), room);
  summary.roomsRecomputed = await step([...touched.values()], async (room) => {
    await rooms.recompute(room);
    return true;
  });

  const told = await notifications.run();
  const history = await writeHistory(inTime);
  return { ...summary, mailed: told.mailed, notifications: told, complete: told.complete && earlierHistory && history && inTime() };
};

export type RunOutcome = { ran: true; summary: EvaluationSummary } | { ran: false; reason: 'busy' | 'not due' };

/**
 * One run under the evaluator's lease. `force` (the operator endpoint) ignores the pace;
 * otherwise it runs only when `intervalDeviceWatchers` passed since the last start.
 * `budgetMs` is what the caller's own time limit leaves; the run also stops at `intervalDeviceWatchersTimeout`.
 */
export const runEvaluation = async (options: { mailer: Mailer; force: boolean; tickSeconds: number; budgetMs?: number }): Promise<RunOutcome> => {
  const settings = evaluatorSettings(await intervals.list());
  const start = Date.now();
  const timeoutMs = Math.min(settings.timeoutSeconds * 1000, options.budgetMs ?? Number.POSITIVE_INFINITY);
  const outcome = await withLease(
    async ({ holding }) => evaluateAlarms({ mailer: options.mailer, deadline: start + timeoutMs, holding }),
    { now: start, dueAt: options.force ? undefined : dueAt(start, settings, options.tickSeconds) },
  );
  return outcome === undefined ? { ran: false, reason: options.force ? 'busy' : 'not due' } : { ran: true, summary: outcome };
};
