import { and, expr } from '#lib/store/expression';
import { update, type Key } from '#lib/store/table';

/*
 * A lease item: at most one holder at a time of a named piece of background work (the alarm
 * evaluator, the device sync), with when its last run started (pacing). Taken by a conditional
 * update, renewed by its holder's heartbeat, released when the run ends; a holder that died stops
 * renewing and the lease lapses (lib/shared/lease.ts holds it).
 */
export interface LeaseItem {
  /**
   * Takes the lease until `leaseUntil` (epoch ms) when no other run holds it and, if `dueAt`
   * is given, the last run started at or before `dueAt`. False when either does not hold.
   */
  acquire: (runId: string, now: number, leaseUntil: number, dueAt?: number) => Promise<boolean>;
  /** The holder's heartbeat: moves its lease to `leaseUntil`. False when the lease is no longer its own. */
  renew: (runId: string, leaseUntil: number) => Promise<boolean>;
  /**
   * Ends the run that holds the lease, recording when it started (unless `startedAt` is undefined:
   * an unpaced run). When the lease expired and another run took over, that run records its own start.
   */
  release: (runId: string, startedAt: number | undefined) => Promise<void>;
}

/** The lease kept in the item `key`, typed `type`. */
export const leaseItem = (key: Key, type: string): LeaseItem => ({
  acquire: async (runId, now, leaseUntil, dueAt) => {
    const due = dueAt === undefined ? undefined : expr('(attribute_not_exists(#lastRunAt) OR #lastRunAt <= :due)', { due: dueAt });
    return !!(await update(key, { set: { type, leaseUntil, runId } }, and(expr('(attribute_not_exists(#leaseUntil) OR #leaseUntil < :now)', { now }), due)));
  },
  renew: async (runId, leaseUntil) => !!(await update(key, { set: { leaseUntil } }, expr('#runId = :run AND #leaseUntil > :zero', { run: runId, zero: 0 }))),
  release: async (runId, startedAt) => {
    await update(key, { set: { leaseUntil: 0, ...(startedAt === undefined ? {} : { lastRunAt: startedAt }) } }, expr('#runId = :run', { run: runId }));
  },
});
