import * as syncRuns from '#lib/db/syncRuns';
import { holdLease } from '#lib/shared/lease';
import type { DeviceProvider } from './provider';
import { syncAndReport, type SyncResult } from './sync';

/** What a sync under the lease did: ran (with its result), or found another sync running. */
export type LeasedSync = { ran: true; result: SyncResult } | { ran: false; reason: 'busy' };

/**
 * One sync at a time (issue 23): the scheduled one, a retried one, a local loop, all sharing the
 * sync's lease (lib/db/syncRuns.ts, renewed while the sync lasts). A sync that finds it held does
 * nothing and says so; one whose holder died (a Lambda timeout) takes it over within LEASE_MS.
 */
export const syncAlone = async (provider: DeviceProvider, options: { now?: number } = {}): Promise<LeasedSync> => {
  const result = await holdLease(syncRuns, () => syncAndReport(provider), options);
  return result ? { ran: true, result } : { ran: false, reason: 'busy' };
};
