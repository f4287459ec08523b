import * as alarmHistory from '#lib/db/alarmHistory';
import * as alarms from '#lib/db/alarms';
import { devices } from '#lib/db/devices';
import { evaluationQueue } from '#lib/db/evaluationQueue';
import { intervals } from '#lib/db/intervals';
import { reconciliation } from '#lib/db/reconciliation';
import * as rooms from '#lib/db/rooms';
import * as silences from '#lib/db/silences';
import * as watchers from '#lib/db/watchers';
import { mapConcurrent } from '#lib/shared/concurrency';
import { isDeadlineExceeded, withDeadline } from '#lib/shared/deadline';
import { placeKey } from '#lib/devices/plan';
import { healSummaries, recountRooms, shiftRooms, writesInFlight } from '#lib/devices/recount';
import type { Place } from '#lib/devices/types';
import { alarmId, type AlarmKey } from './types';
import { logger } from '#lib/log';
import { notifier, type NotificationSummary } from '#lib/notify/notifier';
import { applyPlan, type Applied } from './apply';
import { historyRecord } from './history';
import { evaluateQueued } from './incremental';
import { withLease } from './lease';
import type { Mailer } from './mailer';
import { planAlarms, roomsToRecompute } from './plan';
import { dueAt, evaluatorSettings, historyExpiry, reconcileSeconds, runBudgetMs } from './settings';

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
const tally = (applied: readonly Applied[]) => ({
  raised: applied.reduce((n, a) => n + a.raised.length, 0),
  pending: applied.reduce((n, a) => n + a.pending.length, 0),
  dropped: applied.reduce((n, a) => n + a.dropped.length, 0),
  cleared: applied.reduce((n, a) => n + a.cleared.length, 0),
  updated: applied.reduce((n, a) => n + a.updated.length, 0),
  notices: applied.reduce((n, a) => n + a.notices, 0),
  noticed: applied.flatMap((a) => a.noticed),
  clearedNow: applied.flatMap((a) => a.clearedAlarms),
});

interface PassOptions {
  mailer: Mailer;
  deadline: number;
  holding?: () => boolean;
}
type PassCounts = Omit<EvaluationSummary, 'mailed' | 'notifications' | 'complete' | 'reconciled'> & { notices?: number; noticed?: AlarmKey[]; clearedNow?: alarms.ClearedAlarm[] };
const noCounts = (): PassCounts => ({ raised: 0, pending: 0, dropped: 0, cleared: 0, updated: 0, roomsRecomputed: 0 });

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
const pass = async (
  { mailer, deadline, holding = () => true }: PassOptions,
  work: (inTime: () => boolean, counts: PassCounts) => Promise<boolean>,
): Promise<EvaluationSummary> => {
  const inTime = () => Date.now() < deadline && holding();
  const notifications = notifier({ mailer, deadline });
  const counts = noCounts();
  try {
    return await withDeadline(deadline, async () => {
      const earlier = await notifications.run(Date.now() + (deadline - Date.now()) / 3);
      const earlierHistory = await writeHistory(inTime);
      const complete = await work(inTime, counts);
      const { notices = 0, noticed = [], clearedNow = [], ...done } = counts;
      // the pass hands over the alarms it wrote notices on: the notice index may not show them yet
      const told = notices > 0 ? await notifications.run(undefined, noticed) : earlier;
      const history = done.cleared + done.dropped > 0 ? await writeHistory(inTime, clearedNow) : true;
      return { ...done, mailed: told.mailed, notifications: told, complete: complete && told.complete && earlierHistory && history && inTime() };
    });
  } catch (error) {
    if (!isDeadlineExceeded(error)) throw error;
    const { notices: _notices, noticed: _noticed, clearedNow: _clearedNow, ...done } = counts;
    return { ...done, mailed: notifications.summary.mailed, notifications: { ...notifications.summary, complete: false }, complete: false };
  }
};

/**
 * The full pass, a reconciliation (DESIGN D6): notifications left over by an interrupted run,
 * then every active watcher against the whole inventory, alarm writes (each transition's notice
 * written in the same item write), device severities, every room whose devices changed or whose
 * stored status drifted (each once), the summaries, and the new notifications (one digest per
 * watcher and run: lib/notify). Every step is idempotent and re-derived from stored state, so a
 * run cut short by `deadline` (or a crash) is finished by the next one. Runs stop between
 * writes; a store call still in flight at the deadline is cut off there, as a crash would.
 */
export const evaluateAlarms = async (options: PassOptions): Promise<EvaluationSummary> =>
  pass(options, async (inTime, summary) => {
    const at = new Date().toISOString();
    const [watcherList, inventory, open, silenceList] = await Promise.all([watchers.list(), devices.index(), alarms.open(), silences.current(at)]);
    const plan = planAlarms({ watchers: watcherList, devices: inventory, open, now: at, silences: silenceList });
    if (plan.invalidWatchers.length) logger.warn('watchers with invalid conditions match nothing', { watchers: plan.invalidWatchers });
    const applied = await applyPlan(plan, { devices: inventory, open, watchers: watcherList }, at, inTime);
    Object.assign(summary, tally([applied]));

    // the rooms whose devices changed, and any room whose stored status disagrees (heals lost writes)
    const touched = new Map<string, Place>(applied.rooms.map((room) => [placeKey(room), room]));
    for (const room of roomsToRecompute(await rooms.inScope({}), inventory, plan.worst)) touched.set(placeKey(room), room);
    if (inTime()) summary.roomsRecomputed = (await recountRooms(touched.values())).length;
    if (inTime()) await healSummaries();
    return true;
  });

/**
 * The incremental pass: only the work that is due (devices a sync or refresh changed, watchers
 * that were written, pending alarms whose time came), found by reading the queue and the
 * pending-alarm index, never the fleet. Each room moves once, then the notifications go out.
 */
/** Share of a queue pass's budget its watchers may use; the device pass gets the rest. */
const WATCHER_SHARE = 0.5;

export const evaluateQueue = async (options: PassOptions): Promise<EvaluationSummary> =>
  pass(options, async (inTime, summary) => {
    const at = new Date().toISOString();
    const [queued, due] = await Promise.all([evaluationQueue.list(), alarms.duePending(at)]);
    // watchers get at most WATCHER_SHARE of what is left: the device pass always gets the rest
    const watchersUntil = Date.now() + (options.deadline - Date.now()) * WATCHER_SHARE;
    const { applied, complete, covered, recompute } = await evaluateQueued(queued, due, at, inTime, () => inTime() && Date.now() < watchersUntil);
    Object.assign(summary, tally(applied));
    if (inTime()) {
      // rooms a dead run may have moved already are recomputed whole; the others move by their devices' shifts
      const whole = new Set(recompute.map(placeKey));
      const recomputed = await recountRooms(recompute);
      const shifted = await shiftRooms(applied.flatMap((a) => a.shifts).filter((s) => !whole.has(placeKey(s.place))));
      summary.roomsRecomputed = recomputed.length + shifted.length;
    }
    // the device entries go only once their rooms are written: a run that dies before leaves them claimed
    if (covered.length > 0 && inTime()) await evaluationQueue.remove(covered);
    return complete;
  });

export type RunOutcome = { ran: true; summary: EvaluationSummary } | { ran: false; reason: 'busy' | 'not due' };

/** The end of a run's budget kept for releasing its lease: its passes stop writing this much earlier. */
export const RELEASE_MS = 2_000;

const noSummary = (): EvaluationSummary => ({
  ...noCounts(),
  mailed: 0,
  notifications: { digests: 0, delivered: 0, mailed: 0, retrying: 0, failed: 0, suppressed: 0, complete: false },
  complete: false,
});

/**
 * One run under the evaluator's lease. `force` (the operator endpoint) ignores the pace and
 * runs the full pass; otherwise it runs only when `intervalDeviceWatchers` passed since the
 * last start, and the full pass only when RECONCILE_SECONDS (default an hour) passed since the
 * last complete one. Every run then evaluates the queue. `mode: 'queue'` (a sync, a refresh)
 * evaluates the queue alone and does not move the pace. `budgetMs` is what the caller's own
 * time limit leaves; the run also ends within `intervalDeviceWatchersTimeout` (runBudgetMs)
 * of its call. Both bound the whole run, its store calls included (lib/shared/deadline.ts): the
 * passes stop RELEASE_MS before the end (none of their store calls starts or lasts past that),
 * the lease is released by the end, and the run answers `complete: false` when it was cut
 * short. Only a store too slow to read the settings or take the lease in time makes it throw
 * (DeadlineExceeded, a 503 to a client).
 */
export const runEvaluation = async (options: {
  mailer: Mailer;
  force: boolean;
  tickSeconds: number;
  budgetMs?: number;
  mode?: 'queue';
}): Promise<RunOutcome> => {
  const called = Date.now();
  const callerEnd = called + (options.budgetMs ?? Number.POSITIVE_INFINITY);
  const run = async (): Promise<RunOutcome> => {
    const settings = evaluatorSettings(await intervals.list());
    const start = Date.now();
    const end = Math.min(called + runBudgetMs(settings), callerEnd);
    const paced = !options.force && options.mode !== 'queue';
    const deadline = end - RELEASE_MS;
    const outcome = await withDeadline(end, () =>
      withLease(
        ({ holding }) =>
          withDeadline(deadline, async () => {
            let full: EvaluationSummary | undefined;
            try {
              full =
                options.mode !== 'queue' && (options.force || (await reconciliation.lastAt()) <= start - reconcileSeconds() * 1000)
                  ? await evaluateAlarms({ mailer: options.mailer, deadline, holding })
                  : undefined;
              if (full?.complete) await reconciliation.done(start);
              const queued = await evaluateQueue({ mailer: options.mailer, deadline, holding });
              const summary = full ? sum(full, queued) : queued;
              return { ...summary, reconciled: full !== undefined };
            } catch (error) {
              // a store call between the passes met the deadline: what the passes answered stands
              if (!isDeadlineExceeded(error)) throw error;
              return { ...(full ?? noSummary()), complete: false, reconciled: full !== undefined };
            }
          }),
        { now: start, dueAt: paced ? dueAt(start, settings, options.tickSeconds) : undefined, unpaced: options.mode === 'queue' },
      ),
    );
    return outcome === undefined ? { ran: false, reason: paced ? 'not due' : 'busy' } : { ran: true, summary: outcome };
  };
  // the caller's limit also bounds reading the settings and taking the lease
  return Number.isFinite(callerEnd) ? withDeadline(callerEnd, run) : run();
};

const sumNotifications = (a: NotificationSummary, b: NotificationSummary): NotificationSummary => ({
  digests: a.digests + b.digests,
  delivered: a.delivered + b.delivered,
  mailed: a.mailed + b.mailed,
  retrying: a.retrying + b.retrying,
  failed: a.failed + b.failed,
  suppressed: a.suppressed + b.suppressed,
  complete: a.complete && b.complete,
});

const sum = (a: EvaluationSummary, b: EvaluationSummary): EvaluationSummary => ({
  raised: a.raised + b.raised,
  pending: a.pending + b.pending,
  dropped: a.dropped + b.dropped,
  cleared: a.cleared + b.cleared,
  mailed: a.mailed + b.mailed,
  notifications: sumNotifications(a.notifications, b.notifications),
  updated: a.updated + b.updated,
  roomsRecomputed: a.roomsRecomputed + b.roomsRecomputed,
  complete: a.complete && b.complete,
});
