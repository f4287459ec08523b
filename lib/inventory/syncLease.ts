import { syncRuns } from '#lib/store/leases';
import { holdLease } from '#lib/shared/lease';
import { sleep } from '#lib/shared/timer';
import type { NamedProvider } from './provider/index';
import { syncProvidersAndReport, type ProvidersSyncResult } from './providers';

/** What a sync under the lease did: ran (with its result), found another sync running, or had no provider to sync. */
type LeasedSync = { ran: true; result: ProvidersSyncResult } | { ran: false; reason: 'busy' | 'no provider' };

/**
 * One sync at a time, so two never write the same rooms against each other: the scheduled one, a retried one, a local loop, all sharing the
 * sync's lease (lib/store/leases.ts, renewed while the sync lasts). A sync that finds it held does
 * nothing and says so; one whose holder died (a Lambda timeout) takes it over within LEASE_MS.
 * Under the lease, every configured provider syncs at once (lib/inventory/providers.ts). With
 * `waitMs`, a lease held (by a status poll, lib/inventory/statusPoll.ts) is tried again for that long.
 */
/**
 * How long a scheduled sync waits for the lease before it gives up: a status poll holds the same
 * lease for a few seconds, and the two schedules tick together (a sync given up waits a whole interval).
 */
export const SYNC_LEASE_WAIT_MS = 20_000;
const RETRY_MS = 1_000;

export const syncAlone = async (providers: readonly NamedProvider[], options: { now?: number; waitMs?: number } = {}): Promise<LeasedSync> => {
  // no provider configured (DEVICE_PROVIDERS empty): nothing to sync, so no lease to take
  if (providers.length === 0) {
    await syncProvidersAndReport(providers); // logs that nothing was synced
    return { ran: false, reason: 'no provider' };
  }
  // with a provider, syncProvidersAndReport always answers a result: undefined here is a lease held elsewhere
  const giveUpAt = Date.now() + (options.waitMs ?? 0);
  for (;;) {
    const result = await holdLease(syncRuns, async () => (await syncProvidersAndReport(providers))!, { now: options.now });
    if (result) return { ran: true, result };
    if (Date.now() + RETRY_MS > giveUpAt) return { ran: false, reason: 'busy' };
    await sleep(RETRY_MS);
  }
};
