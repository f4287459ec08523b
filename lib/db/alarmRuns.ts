import { EvaluatorMarker } from '#lib/store/entities/notify';
import { leaseItem } from './leases';

// The alarm evaluator's lease and pacing marker (docs/adr/0052, 0114).
export const { acquire, renew, release } = leaseItem(EvaluatorMarker.key(), EvaluatorMarker.type);
