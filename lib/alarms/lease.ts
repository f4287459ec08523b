import { randomUUID } from 'node:crypto';
import * as alarmRuns from '#lib/db/alarmRuns';
import { logger } from '#lib/log';
import { isDeadlineExceeded } from '#lib/shared/deadline';

/*
 * The evaluator's lease (one run at a time, DESIGN D6): short, and renewed by a heartbeat while
 * the run lasts, so a holder that died (kill -9, a Lambda timeout) is taken over within
 * LEASE_MS of its last beat instead of after a whole run's worth of time.
 */
export const LEASE_MS = 10_000;
export const HEARTBEAT_MS = 3_000;
/** A run stops writing this long before its lease could lapse unrenewed. */
const SAFETY_MS = 2_000;

export interface Lease {
  runId: string;
  /** False once the lease may have lapsed or was taken: the holder must stop writing. */
  holding: () => boolean;
}

/**
 * Runs `task` under the lease, or answers undefined when another run holds it (or, with
 * `dueAt`, the last run started after `dueAt`). The heartbeat ends and the lease is released
 * when the task ends, whichever way (or, when the caller's deadline leaves no time for it, lapses).
 */
export const withLease = async <T>(
  task: (lease: Lease) => Promise<T>,
  /** `unpaced`: a run that does not count as the scheduled one (its start is not recorded). */
  options: { now?: number; dueAt?: number; unpaced?: boolean } = {},
): Promise<T | undefined> => {
  const runId = randomUUID();
  const startedAt = options.now ?? Date.now();
  if (!(await alarmRuns.acquire(runId, startedAt, startedAt + LEASE_MS, options.dueAt))) return undefined;
  let heldUntil = startedAt + LEASE_MS;
  let lost = false;
  const beat = setInterval(() => {
    const until = Date.now() + LEASE_MS;
    alarmRuns.renew(runId, until).then(
      (renewed) => {
        if (renewed) heldUntil = until;
        else lost = true;
      },
      // the store did not answer: keep the horizon we have, the next beat tries again
      () => undefined,
    );
  }, HEARTBEAT_MS);
  try {
    return await task({ runId, holding: () => !lost && Date.now() < heldUntil - SAFETY_MS });
  } finally {
    clearInterval(beat);
    // a release the caller's deadline cut short is no failure: the lease lapses within LEASE_MS
    await alarmRuns.release(runId, options.unpaced ? undefined : startedAt).catch((error: unknown) => {
      if (!isDeadlineExceeded(error)) throw error;
      logger.warn('evaluator lease left to lapse: the run ran out of time to release it', { runId });
    });
  }
};
