import type { IntervalRecord } from '#lib/config';

const DEFAULT_EVALUATION_INTERVAL_SECONDS = 60;
const DEFAULT_EVALUATION_TIMEOUT_SECONDS = 50;

interface EvaluatorSettings {
  /** Seconds between the starts of two scheduled runs (`intervalDeviceWatchers`). */
  intervalSeconds: number;
  /** Longest one run may take (`intervalDeviceWatchersTimeout`). */
  timeoutSeconds: number;
}

/** The pace of the evaluator: the interval settings with the lowest id, defaults when there are none. */
export const evaluatorSettings = (records: readonly IntervalRecord[]): EvaluatorSettings => {
  const first = [...records].sort((a, b) => a.id - b.id)[0];
  return {
    intervalSeconds: first?.intervalDeviceWatchers ?? DEFAULT_EVALUATION_INTERVAL_SECONDS,
    timeoutSeconds: first?.intervalDeviceWatchersTimeout ?? DEFAULT_EVALUATION_TIMEOUT_SECONDS,
  };
};

/**
 * The least time a run is given, whatever `intervalDeviceWatchersTimeout` says: below it a run
 * may finish nothing (one watcher over the fleet, then its devices), and the queue stalls.
 */
export const MIN_RUN_SECONDS = 10;

/** What one run may take: `intervalDeviceWatchersTimeout`, never below MIN_RUN_SECONDS. */
export const runBudgetMs = (settings: EvaluatorSettings): number => Math.max(MIN_RUN_SECONDS, settings.timeoutSeconds) * 1000;

/**
 * Whether a scheduled tick should run: the interval has passed since the last start, with half
 * a tick of slack so that a schedule firing a little early does not skip a whole tick.
 */
export const dueAt = (now: number, settings: EvaluatorSettings, tickSeconds: number): number =>
  now - Math.max(0, settings.intervalSeconds - tickSeconds / 2) * 1000;

/**
 * Seconds between two full reconciliation passes (RECONCILE_SECONDS, default an hour): news
 * travels through the queue; the full pass only heals drift (lost writes, deleted watchers'
 * stragglers), so it runs on this slower schedule.
 */
export const reconcileSeconds = (env: NodeJS.ProcessEnv = process.env): number => {
  const value = Number(env.RECONCILE_SECONDS ?? 3600);
  return Number.isFinite(value) && value >= 0 ? value : 3600;
};
