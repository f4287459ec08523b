import type { Mailer } from '#lib/notify/mail/types';
import { intervals } from '#lib/config';
import { reconciliation } from '#lib/notify/repository/markers';
import { addUp } from '#lib/shared/tally';
import { isDeadlineExceeded, withDeadline } from '#lib/shared/deadline';
import type { FullPass } from './fullPass';
import { withLease } from './lease';
import { noCounts, type EvaluationSummary } from './pass';
import { dueAt, evaluatorSettings, reconcileSeconds, runBudgetMs } from './pure/settings';
import { queuePass } from './queuePass';

export type RunOutcome = { ran: true; summary: EvaluationSummary } | { ran: false; reason: 'busy' | 'not due' };

/** The end of a run's budget kept for releasing its lease: its passes stop writing this much earlier. */
const RELEASE_MS = 2_000;

const noSummary = (): EvaluationSummary => ({
  ...noCounts(),
  mailed: 0,
  notifications: { digests: 0, delivered: 0, mailed: 0, retrying: 0, failed: 0, suppressed: 0, complete: false },
  complete: false,
});

/**
 * What a run is asked to do. `forced` (the operator endpoint): the full pass and the queue,
 * whatever the pace. `scheduled` (the schedule, `npm start`'s loop): only when
 * `intervalDeviceWatchers` passed since the last start (`tickSeconds`: the schedule's period),
 * the full pass only when RECONCILE_SECONDS (default an hour) passed since the last complete
 * one, then the queue. `queue` (after a sync or a refresh): the queue alone, without moving the pace.
 */
export type RunMode = { mode: 'forced' } | { mode: 'scheduled'; tickSeconds: number } | { mode: 'queue' };

/**
 * One run under the evaluator's lease, as `mode` says (RunMode). `budgetMs` is what the
 * caller's own time limit leaves; the run also ends within `intervalDeviceWatchersTimeout`
 * (runBudgetMs) of its call. Both bound the whole run, its store calls included
 * (lib/shared/deadline.ts): the passes stop RELEASE_MS before the end (none of their store
 * calls starts or lasts past that), the lease is released by the end, and the run answers
 * `complete: false` when it was cut short. Only a store too slow to read the settings or take
 * the lease in time makes it throw (DeadlineExceeded, a 503 to a client). `fullPass`: the full
 * pass, handed in by run.ts (a queue-only run, runQueue, does without it).
 */
export const runPasses = async (options: RunMode & { mailer: Mailer; budgetMs?: number }, fullPass: FullPass | undefined): Promise<RunOutcome> => {
  const called = Date.now();
  const callerEnd = called + (options.budgetMs ?? Number.POSITIVE_INFINITY);
  const run = async (): Promise<RunOutcome> => {
    const settings = evaluatorSettings(await intervals.list());
    const start = Date.now();
    const end = Math.min(called + runBudgetMs(settings), callerEnd);
    const deadline = end - RELEASE_MS;
    const reconcileDue = async () => (await reconciliation.lastAt()) <= start - reconcileSeconds() * 1000;
    const outcome = await withDeadline(end, () =>
      withLease(
        ({ holding }) =>
          withDeadline(deadline, async () => {
            let full: EvaluationSummary | undefined;
            try {
              full =
                fullPass && (options.mode === 'forced' || (options.mode === 'scheduled' && (await reconcileDue())))
                  ? await fullPass({ mailer: options.mailer, deadline, holding })
                  : undefined;
              if (full?.complete) await reconciliation.done(start);
              const queued = await queuePass({ mailer: options.mailer, deadline, holding });
              const summary = full ? sum(full, queued) : queued;
              return { ...summary, reconciled: full !== undefined };
            } catch (error) {
              // a store call between the passes met the deadline: what the passes answered stands
              if (!isDeadlineExceeded(error)) throw error;
              return { ...(full ?? noSummary()), complete: false, reconciled: full !== undefined };
            }
          }),
        { now: start, dueAt: options.mode === 'scheduled' ? dueAt(start, settings, options.tickSeconds) : undefined, unpaced: options.mode === 'queue' },
      ),
    );
    return outcome === undefined ? { ran: false, reason: options.mode === 'scheduled' ? 'not due' : 'busy' } : { ran: true, summary: outcome };
  };
  // the caller's limit also bounds reading the settings and taking the lease
  return Number.isFinite(callerEnd) ? withDeadline(callerEnd, run) : run();
};

/**
 * A run of the queue alone (after a sync or a refresh): without the full pass, which only
 * `forced` and `scheduled` runs make (run.ts), so that their functions do not bundle it.
 */
export const runQueue = (options: { mailer: Mailer; budgetMs?: number }): Promise<RunOutcome> => runPasses({ ...options, mode: 'queue' }, undefined);

/** Two passes' summaries as one: counts added, `complete` only when both completed. */
const sum = (a: EvaluationSummary, b: EvaluationSummary): EvaluationSummary => addUp(a, b);
