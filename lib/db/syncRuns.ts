import { SyncMarker } from '#lib/store/entities/notify';
import { leaseItem } from './leases';

/*
 * One marker item for the device sync: its lease (no two syncs at once: a scheduled one, a
 * retried one, a local loop against the same table) and when the last one started.
 */
export const { acquire, renew, release } = leaseItem(SyncMarker.key(), SyncMarker.type);
