import * as providerStatuses from '#lib/inventory/repository/providers';
import type { ProviderDevice, StoredDevice } from '#lib/devices/types';
import { logger } from '#lib/shared/log';
import { recordProvider, recordWork } from '#lib/shared/metrics';
import { newMeter, PagingBound, type NamedProvider, type ProviderMeter } from './provider/index';
import { ProviderError } from './provider/vendorHttp';
import { fitDevices } from './pure/names';
import {
  backingOff,
  emptyStatus,
  pagingBackoffMs,
  removalVerdict,
  sanitise,
  staleSince,
  type HeldRemovals,
  type ProviderStatus,
} from './pure/providerStatus';
import { reportSync, syncListing, type SyncResult } from './sync';

/*
 * A sync of several providers at once (DESIGN §6). Each provider lists on its own; one that fails
 * changes nothing of its stored devices (they are held: neither updated nor removed) while the
 * others sync. A serial number two providers list belongs to the one named first in
 * DEVICE_PROVIDERS (the other's record is skipped and counted). Removals of more than
 * SYNC_MAX_REMOVAL_PERCENT of a provider's devices wait until the same removals are seen in three
 * consecutive syncs. A provider failing longer than PROVIDER_STALE_MINUTES has its devices flagged
 * `staleSince`. A listing stopped by a paging bound (a page seen twice, the page budget derived
 * from the fleet held spent: provider/paging.ts) backs that provider off: its listing is not tried
 * again for a while, doubling with each such failure in a row, until one succeeds (docs/guide/rules/inventory.md "Vendor paging: a page seen twice ends a listing; a page budget from the fleet held; backoff"). After
 * the run each provider's status is stored (GET /providers) and published.
 */

export interface ProvidersSyncResult extends SyncResult {
  providers: { name: string; ok: boolean; devices: number; error?: string; heldRemovals?: number }[];
}

interface ProvidersSyncOptions {
  now?: () => number;
}

const settings = () => {
  const percent = Number(process.env.SYNC_MAX_REMOVAL_PERCENT ?? 20);
  const minutes = Number(process.env.PROVIDER_STALE_MINUTES ?? 30);
  return {
    maxRemovalPercent: Number.isFinite(percent) && percent >= 0 ? percent : 20,
    staleMinutes: Number.isFinite(minutes) && minutes >= 0 ? minutes : 30,
  };
};

const countIn = (counts: Record<string, number>, reason: string) => {
  counts[reason] = (counts[reason] ?? 0) + 1;
};

/** `backedOff`: not tried this sync (the provider is backing off after a paging bound). */
type Listing = { name: string; meter: ProviderMeter } & (
  | { ok: true; devices: ProviderDevice[]; outOfBounds: number }
  | { ok: false; error: unknown; backedOff?: boolean }
);

const failureOf = (error: unknown, at: string) => ({
  at,
  message: sanitise(error instanceof Error ? error.message : String(error)),
  ...(error instanceof ProviderError && error.status !== undefined ? { status: error.status } : {}),
  ...(error instanceof ProviderError && error.trackingId ? { trackingId: error.trackingId } : {}),
});

/** Every listing merged in provider order: the first provider to list a serial number keeps it. */
const merge = (listings: readonly Listing[]) => {
  const owner = new Map<string, string>();
  const devices: ProviderDevice[] = [];
  const duplicates = new Map<string, number>();
  for (const listing of listings) {
    if (!listing.ok) continue;
    for (const device of listing.devices) {
      const first = owner.get(device.devicesn);
      if (first !== undefined && first !== listing.name) {
        duplicates.set(listing.name, (duplicates.get(listing.name) ?? 0) + 1);
        continue;
      }
      owner.set(device.devicesn, listing.name);
      devices.push({ ...device, vendor: listing.name });
    }
  }
  return { devices, duplicates, listed: (name: string) => devices.filter((d) => d.vendor === name).length };
};

export const syncProviders = async (providers: readonly NamedProvider[], options: ProvidersSyncOptions = {}): Promise<ProvidersSyncResult | undefined> => {
  const now = options.now ?? Date.now;
  if (providers.length === 0) {
    logger.warn('device sync: no device provider configured (DEVICE_PROVIDERS is empty); nothing synced');
    return undefined;
  }
  const { maxRemovalPercent, staleMinutes } = settings();
  const startedAt = new Date(now()).toISOString();
  const statuses = await providerStatuses.all();
  const statusOf = (name: string) => statuses.get(name) ?? emptyStatus(name);

  const listings: Listing[] = await Promise.all(
    providers.map(async ({ name, provider }): Promise<Listing> => {
      const meter = newMeter();
      const before = statusOf(name);
      if (backingOff(before, now())) {
        const message = `not listed: backing off until ${before.backoffUntil} after ${before.pagingFailures ?? 0} listings in a row stopped by a paging bound`;
        return { name, meter, ok: false, backedOff: true, error: new ProviderError(message) };
      }
      try {
        // the page budget derives from the fleet we hold of it, and grows with each bound failure in a row;
        // each device is brought within its field bounds here, so that what is skipped or cut is counted for
        // its provider (the merged listing is bounded again by syncListing: a no-op by then)
        const listed = await provider.listDevices(meter, { fleet: before.devices, pagingFailures: before.pagingFailures ?? 0 });
        const { fit, skipped } = fitDevices(
          listed.map((device) => ({ ...device, vendor: name })),
          (kind, reason) => countIn(meter[kind], reason),
        );
        for (const device of skipped) logger.warn('device skipped by the sync: unusable field', { provider: name, reason: device.reason, devicesn: device.devicesn.slice(0, 256) });
        // a device skipped for another field than its serial number is held as stored
        meter.unreadable.push(...skipped.filter((device) => device.field !== 'devicesn').map((device) => device.devicesn));
        return { name, meter, ok: true, devices: fit, outOfBounds: skipped.length };
      } catch (error) {
        return { name, meter, ok: false, error };
      }
    }),
  );
  const failed = new Set(listings.filter((l) => !l.ok).map((l) => l.name));
  const merged = merge(listings);
  // a device stored before devices carried their vendor belongs to the first provider
  const ownerOf = (device: Pick<StoredDevice, 'vendor'>) => device.vendor ?? providers[0]!.name;

  const held = new Map<string, HeldRemovals>();
  const guard = async (removed: readonly StoredDevice[]): Promise<ReadonlySet<string>> => {
    const byOwner = new Map<string, string[]>();
    for (const device of removed) byOwner.set(ownerOf(device), [...(byOwner.get(ownerOf(device)) ?? []), device.devicesn]);
    const keep = new Set<string>();
    for (const [name, removing] of byOwner) {
      const verdict = removalVerdict({
        removing,
        known: Math.max(statusOf(name).devices, merged.listed(name)),
        maxPercent: maxRemovalPercent,
        pending: statusOf(name).heldRemovals,
        now: startedAt,
      });
      if (verdict.apply) continue;
      held.set(name, verdict.held!);
      for (const serial of removing) keep.add(serial);
      logger.warn('device sync: removals held by the removal guard', {
        provider: name,
        removals: removing.length,
        seen: verdict.held!.seen,
        maxRemovalPercent,
      });
    }
    return keep;
  };

  const stale = new Map<string, string>();
  for (const name of failed) {
    const status = statusOf(name);
    const failingSince = status.failingSince ?? startedAt;
    const since = staleSince(failingSince, staleMinutes, now());
    if (since && status.staleFlaggedFor !== failingSince) stale.set(name, since);
  }

  const result = await syncListing(merged.devices, {
    unreadable: listings.flatMap((l) => l.meter.unreadable),
    holds: (device) => failed.has(ownerOf(device)),
    guard,
    stale,
    listedAt: startedAt,
  });

  const outcome: ProvidersSyncResult['providers'] = [];
  for (const listing of listings) {
    const before = statusOf(listing.name);
    const figures = { requests: listing.meter.requests, throttledWaits: listing.meter.throttledWaits, waitedMs: Math.round(listing.meter.waitedMs) };
    let status: ProviderStatus;
    if (listing.ok) {
      const { lastError } = before;
      status = {
        ...emptyStatus(listing.name),
        ...(lastError ? { lastError } : {}),
        lastSyncAt: startedAt,
        lastSuccessAt: startedAt,
        devices: merged.listed(listing.name),
        skipped: listing.meter.skipped,
        adjusted: listing.meter.adjusted,
        duplicates: merged.duplicates.get(listing.name) ?? 0,
        ...figures,
        ...(held.has(listing.name) ? { heldRemovals: held.get(listing.name)! } : {}),
      };
    } else if (listing.backedOff) {
      logger.warn('device sync: provider backing off; its devices stay as stored', { provider: listing.name, backoffUntil: before.backoffUntil, pagingFailures: before.pagingFailures });
      status = { ...before, ...(stale.has(listing.name) ? { staleFlaggedFor: before.failingSince ?? startedAt } : {}) };
    } else {
      const failure = failureOf(listing.error, startedAt);
      const failingSince = before.failingSince ?? startedAt;
      const { message: error, ...detail } = failure;
      logger.error('device sync: provider failed; its devices stay as stored', { provider: listing.name, error, ...detail, failingSince });
      status = {
        ...before,
        lastSyncAt: startedAt,
        lastError: failure,
        failingSince,
        ...figures,
        ...(stale.has(listing.name) ? { staleFlaggedFor: failingSince } : {}),
        ...(listing.error instanceof PagingBound ? pagingFailure(before, Date.parse(startedAt)) : {}),
      };
    }
    await providerStatuses.put(status);
    outcome.push({
      name: listing.name,
      ok: listing.ok,
      devices: status.devices,
      ...(listing.ok ? {} : { error: listing.backedOff ? failureOf(listing.error, startedAt).message : status.lastError!.message }),
      ...(status.heldRemovals ? { heldRemovals: status.heldRemovals.count } : {}),
    });
    await recordProvider(listing.name, {
      ProviderSyncFailed: listing.ok ? 0 : 1,
      ProviderDevices: status.devices,
      ProviderRequests: figures.requests,
      ProviderThrottledWaits: figures.throttledWaits,
      ProviderWaited: [figures.waitedMs, 'Milliseconds'],
      ProviderHeldRemovals: status.heldRemovals?.count ?? 0,
    });
  }
  await recordWork('sync', { ProvidersFailing: failed.size });
  // the records skipped for a field out of bounds count with those the merged listing skipped (DevicesSkippedInvalid)
  const outOfBounds = listings.reduce((sum, listing) => sum + (listing.ok ? listing.outOfBounds : 0), 0);
  return { ...result, skipped: result.skipped + outOfBounds, providers: outcome };
};

/** The status fields after one more listing in a row stopped by a paging bound: the count, and the backoff it earns. */
const pagingFailure = (before: ProviderStatus, at: number): Pick<ProviderStatus, 'pagingFailures' | 'backoffUntil'> => {
  const pagingFailures = (before.pagingFailures ?? 0) + 1;
  return { pagingFailures, backoffUntil: new Date(at + pagingBackoffMs(pagingFailures)).toISOString() };
};

/** syncProviders with the run's figures published (lib/inventory/sync.ts reportSync); undefined when none is configured. */
export const syncProvidersAndReport = async (providers: readonly NamedProvider[]): Promise<ProvidersSyncResult | undefined> =>
  providers.length === 0 ? syncProviders(providers) : reportSync(async () => (await syncProviders(providers))!);
