import * as providerStatuses from '#lib/inventory/repository/providers';
import * as statusPolls from '#lib/inventory/repository/statusPolls';
import * as vendorEvents from '#lib/inventory/repository/vendorEvents';
import { configuredNames } from './provider/kinds';
import { backingOff, staleSince, type ProviderFailure } from './pure/providerStatus';

/** One provider as `GET /providers` answers it. */
interface ProviderReport {
  name: string;
  /** Named by DEVICE_PROVIDERS now (a provider no longer configured keeps its last record). */
  configured: boolean;
  lastSyncAt: string | null;
  lastSuccessAt: string | null;
  lastError: ProviderFailure | null;
  failingSince: string | null;
  /** Failing longer than PROVIDER_STALE_MINUTES: its devices carry `staleSince`. */
  stale: boolean;
  staleSince: string | null;
  devices: number;
  skipped: Record<string, number>;
  adjusted: Record<string, number>;
  duplicates: number;
  requests: number;
  throttledWaits: number;
  waitedSeconds: number;
  heldRemovals: { count: number; seen: number; since: string } | null;
  /** Listings in a row stopped by a paging bound (a page seen twice, the page budget spent). */
  pagingFailures: number;
  /** While backing off after such a failure: its listing is not tried before this. */
  backoffUntil: string | null;
  /** What its pushed events came to (Zoom's webhooks); null for a vendor that has pushed nothing. */
  events: { received: number; rejected: number; duplicates: number; unknown: number; lastEventAt: string | null } | null;
  /** What its status polls between syncs came to; null for a provider never polled (no status filter, or no poll yet). */
  statusPolls: { count: number; failed: number; lastAt: string | null; lastError: string | null; requests: number; lastRequests: number; changes: number } | null;
}

export interface ProvidersReport {
  configured: string[];
  /** Present when nothing is configured: the sync stores nothing (never a simulated fleet). */
  message?: string;
  providers: ProviderReport[];
}

const staleMinutes = () => {
  const value = Number(process.env.PROVIDER_STALE_MINUTES ?? 30);
  return Number.isFinite(value) && value >= 0 ? value : 30;
};

/** Every provider configured, with a stored status or with pushed events, configured ones first in their order. */
export const providersReport = async (now = Date.now()): Promise<ProvidersReport> => {
  const configured = configuredNames();
  const [statuses, counted, polled] = await Promise.all([providerStatuses.all(), vendorEvents.counts(), statusPolls.counts()]);
  const events = new Map(counted.map(({ vendor, ...counts }) => [vendor, counts]));
  const polls = new Map(polled.map(({ vendor, ...counts }) => [vendor, counts]));
  // a vendor that pushed events is listed too, configured or not (a receiver set up before its provider)
  const known = new Set([...statuses.keys(), ...events.keys(), ...polls.keys()]);
  const names = [...configured, ...[...known].filter((name) => !(configured as string[]).includes(name)).sort()];
  const providers = names.map((name): ProviderReport => {
    const status = statuses.get(name);
    const since = staleSince(status?.failingSince, staleMinutes(), now) ?? null;
    return {
      name,
      configured: (configured as string[]).includes(name),
      lastSyncAt: status?.lastSyncAt ?? null,
      lastSuccessAt: status?.lastSuccessAt ?? null,
      lastError: status?.lastError ?? null,
      failingSince: status?.failingSince ?? null,
      stale: since !== null,
      staleSince: since,
      devices: status?.devices ?? 0,
      skipped: status?.skipped ?? {},
      adjusted: status?.adjusted ?? {},
      duplicates: status?.duplicates ?? 0,
      requests: status?.requests ?? 0,
      throttledWaits: status?.throttledWaits ?? 0,
      waitedSeconds: Math.round((status?.waitedMs ?? 0) / 100) / 10,
      heldRemovals: status?.heldRemovals ? { count: status.heldRemovals.count, seen: status.heldRemovals.seen, since: status.heldRemovals.since } : null,
      pagingFailures: status?.pagingFailures ?? 0,
      backoffUntil: status && backingOff(status, now) ? status.backoffUntil! : null,
      events: events.get(name) ?? null,
      statusPolls: polls.get(name) ?? null,
    };
  });
  return {
    configured,
    ...(configured.length === 0 ? { message: 'No device provider is configured (DEVICE_PROVIDERS): the sync stores nothing.' } : {}),
    providers,
  };
};
