import { SyncMarker } from '#lib/store/entities/notify';
import { leaseItem } from './leases';

// The device sync's lease and pacing marker (docs/adr/0166).
export const { acquire, renew, release } = leaseItem(SyncMarker.key(), SyncMarker.type);
