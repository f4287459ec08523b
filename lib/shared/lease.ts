import { randomUUID } from 'node:crypto';
import { logger } from '#lib/shared/log';
import { isDeadlineExceeded } from './deadline';

/*
 * Holding a lease for a run of background work (the evaluator, the sync): short, and renewed by a
 * heartbeat while the run lasts, so a holder that died (kill -9, a Lambda timeout) is taken over
 * within LEASE_MS of its last beat instead of after a whole run's worth of time. The item itself
 * is the store's (lib/store/leases.ts); this is the same mechanism for every user of one.
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

/** Where a lease is kept (lib/store/leases.ts). */
export interface LeaseStore {
  acquire: (runId: string, now: number, leaseUntil: number, dueAt?: number) => Promise<boolean>;
  renew: (runId: string, leaseUntil: number) => Promise<boolean>;
  release: (runId: string, startedAt: number | undefined) => Promise<void>;
}

export interface LeaseOptions {
  now?: number;
  /** Run only when the last run started at or before this (pacing). */
  dueAt?: number;
  /** A run that does not count as the scheduled one (its start is not recorded). */
  unpaced?: boolean;
}

/**
 * Runs `task` under the lease of `store`, or answers undefined when another run holds it (or, with
 * `dueAt`, the last run started after `dueAt`). The heartbeat ends and the lease is released
 * when the task ends, whichever way (or, when the caller's deadline leaves no time for it, lapses).
 */
export const holdLease = async <T>(store: LeaseStore, task: (lease: Lease) => Promise<T>, options: LeaseOptions = {}): Promise<T | undefined> => {
  const runId = randomUUID();
  const startedAt = options.now ?? Date.now();
  if (!(await store.acquire(runId, startedAt, startedAt + LEASE_MS, options.dueAt))) return undefined;
  let heldUntil = startedAt + LEASE_MS;
  let lost = false;
  const beat = setInterval(() => {
    const until = Date.now() + LEASE_MS;
    store.renew(runId, until).then(
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
    // a release the caller's deadline (lib/shared/deadline.ts) cut short is no failure: the lease lapses within LEASE_MS
    await store.release(runId, options.unpaced ? undefined : startedAt).catch((error: unknown) => {
      if (!isDeadlineExceeded(error)) throw error;
      logger.warn('lease left to lapse: the run ran out of time to release it', { runId });
    });
  }
};
