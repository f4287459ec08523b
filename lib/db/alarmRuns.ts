import { EvaluatorMarker } from '#lib/store/entities/notify';
import { leaseItem } from './leases';

/*
 * One marker item for the alarm evaluator: when the last run started (pacing) and a lease, so
 * that a scheduled run and an operator's run never evaluate (and mail) at the same time.
 */
export const { acquire, renew, release } = leaseItem(EvaluatorMarker.key(), EvaluatorMarker.type);
