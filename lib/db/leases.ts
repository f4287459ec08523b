import { conditionHeld, updateItem } from './helpers';

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
export const leaseItem = (key: { PK: string; SK: string }, type: string): LeaseItem => ({
  acquire: (runId, now, leaseUntil, dueAt) => {
    const due = dueAt === undefined ? '' : ' AND (attribute_not_exists(#last) OR #last <= :due)';
    return conditionHeld(
      updateItem(key, {
        UpdateExpression: 'SET #type = :type, #lease = :until, #run = :run',
        ConditionExpression: `(attribute_not_exists(#lease) OR #lease < :now)${due}`,
        ExpressionAttributeNames: { '#type': 'type', '#lease': 'leaseUntil', '#run': 'runId', ...(dueAt === undefined ? {} : { '#last': 'lastRunAt' }) },
        ExpressionAttributeValues: { ':type': type, ':until': leaseUntil, ':run': runId, ':now': now, ...(dueAt === undefined ? {} : { ':due': dueAt }) },
      }),
    );
  },
  renew: (runId, leaseUntil) =>
    conditionHeld(
      updateItem(key, {
        UpdateExpression: 'SET #lease = :until',
        ConditionExpression: '#run = :run AND #lease > :zero',
        ExpressionAttributeNames: { '#lease': 'leaseUntil', '#run': 'runId' },
        ExpressionAttributeValues: { ':until': leaseUntil, ':run': runId, ':zero': 0 },
      }),
    ),
  release: async (runId, startedAt) => {
    await conditionHeld(
      updateItem(key, {
        UpdateExpression: startedAt === undefined ? 'SET #lease = :zero' : 'SET #lease = :zero, #last = :started',
        ConditionExpression: '#run = :run',
        ExpressionAttributeNames: { '#lease': 'leaseUntil', '#run': 'runId', ...(startedAt === undefined ? {} : { '#last': 'lastRunAt' }) },
        ExpressionAttributeValues: { ':zero': 0, ':run': runId, ...(startedAt === undefined ? {} : { ':started': startedAt }) },
      }),
    );
  },
});
