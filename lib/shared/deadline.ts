import { AsyncLocalStorage } from 'node:async_hooks';
import { sleep } from './timer';

/*
 * A run's deadline, carried by the run itself (AsyncLocalStorage) to every store call it makes,
 * however deep: the alarm engine sets it once (lib/alarms/engine/runPasses.ts `runPasses`), and the
 * store client (lib/store/client.ts) refuses a request that would start after it and aborts one
 * still in flight when it passes. Checking `inTime()` between writes bounds only what starts;
 * a slow store (each call up to requestTimeout x maxAttempts) and reads that never look at the
 * clock made runs overrun their budget by many seconds. Code outside a run
 * sees no deadline and is not affected.
 */

/** A store call refused or cut short because the run's deadline passed (the run answers `complete: false`). */
export class DeadlineExceeded extends Error {
  constructor(readonly deadline: number) {
    super(`the run's deadline passed ${Math.max(0, Date.now() - deadline)} ms ago`);
    this.name = 'DeadlineExceeded';
  }
}

/** Also true for the error as the SDK hands it back (it may copy or wrap what the request handler threw). */
export const isDeadlineExceeded = (error: unknown): error is DeadlineExceeded =>
  error instanceof DeadlineExceeded || (error instanceof Error && (error.name === 'DeadlineExceeded' || isDeadlineExceeded(error.cause)));

const scope = new AsyncLocalStorage<number>();

/** The deadline (epoch ms) of the run this code belongs to; undefined outside any run. */
export const currentDeadline = (): number | undefined => scope.getStore();

/** Runs `task` under `deadline`, or under the enclosing one when that is earlier (a run never outlives its caller). */
export const withDeadline = <T>(deadline: number, task: () => Promise<T>): Promise<T> => {
  const outer = scope.getStore();
  return scope.run(outer === undefined ? deadline : Math.min(outer, deadline), task);
};

/**
 * A pause (pacing, backoff) that respects the run's deadline: one that would end after it
 * throws DeadlineExceeded at once instead of sleeping past it.
 */
export const pause = async (ms: number): Promise<void> => {
  const deadline = scope.getStore();
  if (deadline !== undefined && Date.now() + ms >= deadline) throw new DeadlineExceeded(deadline);
  await sleep(ms);
};
