import { leaseItem } from './leases';

/*
 * One marker item for the alarm evaluator: when the last run started (pacing) and a lease, so
 * that a scheduled run and an operator's run never evaluate (and mail) at the same time.
 */
const lease = leaseItem({ PK: 'ALARM_EVALUATOR', SK: 'STATE' }, 'AlarmEvaluator');

export const acquire = lease.acquire;
export const renew = lease.renew;
export const release = lease.release;
