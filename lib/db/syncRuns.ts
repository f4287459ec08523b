import { leaseItem } from './leases';

/*
 * One marker item for the device sync: its lease (no two syncs at once: a scheduled one, a
 * retried one, a local loop against the same table) and when the last one started.
 */
const lease = leaseItem({ PK: 'DEVICE_SYNC', SK: 'STATE' }, 'DeviceSync');

export const acquire = lease.acquire;
export const renew = lease.renew;
export const release = lease.release;
