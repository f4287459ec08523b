import { conditionHeld, updateItem } from './helpers';

/*
 * One marker item for the alarm evaluator: when the last run started (pacing) and a lease, so
 * that a scheduled run and an operator's run never evaluate (and mail) at the same time.
 */
const KEY = { PK: 'ALARM_EVALUATOR', SK: 'STATE' };

/**
 * Takes the lease until `leaseUntil` (epoch ms) when no other run holds it and, if `dueAt`
 * is given, the last run started at or before `dueAt`. False when either does not hold.
 */
export const acquire = (runId: string, now: number, leaseUntil: number, dueAt?: number): Promise<boolean> => {
  const due = dueAt === undefined ? '' : ' AND (attribute_not_exists(#last) OR #last <= :due)';
  return conditionHeld(
    updateItem(KEY, {
      UpdateExpression: 'SET #type = :type, #lease = :until, #run = :run',
      ConditionExpression: `(attribute_not_exists(#lease) OR #lease < :now)${due}`,
      ExpressionAttributeNames: { '#type': 'type', '#lease': 'leaseUntil', '#run': 'runId', ...(dueAt === undefined ? {} : { '#last': 'lastRunAt' }) },
      ExpressionAttributeValues: { ':type': 'AlarmEvaluator', ':until': leaseUntil, ':run': runId, ':now': now, ...(dueAt === undefined ? {} : { ':due': dueAt }) },
    }),
  );
};

/** The holder's heartbeat: moves its lease to `leaseUntil`. False when the lease is no longer its own. */
export const renew = (runId: string, leaseUntil: number): Promise<boolean> =>
  conditionHeld(
    updateItem(KEY, {
      UpdateExpression: 'SET #lease = :until',
      ConditionExpression: '#run = :run AND #lease > :zero',
      ExpressionAttributeNames: { '#lease': 'leaseUntil', '#run': 'runId' },
      ExpressionAttributeValues: { ':until': leaseUntil, ':run': runId, ':zero': 0 },
    }),
  );

/**
 * Ends the run that holds the lease, recording when it started (unless `startedAt` is undefined:
 * an unpaced run). When the lease expired and another run took over, that run records its own start.
 */
export const release = async (runId: string, startedAt: number | undefined): Promise<void> => {
  await conditionHeld(
    updateItem(KEY, {
      UpdateExpression: startedAt === undefined ? 'SET #lease = :zero' : 'SET #lease = :zero, #last = :started',
      ConditionExpression: '#run = :run',
      ExpressionAttributeNames: { '#lease': 'leaseUntil', '#run': 'runId', ...(startedAt === undefined ? {} : { '#last': 'lastRunAt' }) },
      ExpressionAttributeValues: { ':zero': 0, ':run': runId, ...(startedAt === undefined ? {} : { ':started': startedAt }) },
    }),
  );
};
