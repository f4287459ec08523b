import { alarmRuns } from '#lib/store/leases';
import { holdLease, type Lease, type LeaseOptions } from '#lib/shared/lease';

/*
 * The evaluator's lease (one run at a time, DESIGN D6): the generic lease of lib/shared/lease.ts
 * on the evaluator's marker item (lib/store/leases.ts).
 */
export { HEARTBEAT_MS, LEASE_MS } from '#lib/shared/lease';

/**
 * Runs `task` under the lease, or answers undefined when another run holds it (or, with
 * `dueAt`, the last run started after `dueAt`). The heartbeat ends and the lease is released
 * when the task ends, whichever way (or, when the caller's deadline leaves no time for it, lapses).
 */
export const withLease = <T>(task: (lease: Lease) => Promise<T>, options: LeaseOptions = {}): Promise<T | undefined> =>
  holdLease(alarmRuns, task, options);
