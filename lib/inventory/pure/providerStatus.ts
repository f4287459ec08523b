import { createHash } from 'node:crypto';

/*
 * Each provider's standing (DESIGN §6): what its last syncs did, the removals the guard holds,
 * since when it fails. One record per provider, written by the sync after each run, read by
 * `GET /providers`. Pure: the rules that decide what the record says live here.
 */

/** Removals the guard holds back: a listing that would remove too many of a provider's devices. */
export interface HeldRemovals {
  count: number;
  /** Consecutive syncs that saw the same removals (applied on the REQUIRED_SIGHTINGS-th). */
  seen: number;
  /** A hash of the serial numbers the listing would remove: "the same listing" (stored as `digest`: lib/config/entities.ts). */
  listingHash: string;
  since: string;
}

export interface ProviderFailure {
  at: string;
  /** What failed, never a token or a secret (sanitised once more before it is stored). */
  message: string;
  status?: number;
  trackingId?: string;
}

export interface ProviderStatus {
  name: string;
  lastSyncAt?: string;
  lastSuccessAt?: string;
  lastError?: ProviderFailure;
  /** Since when every sync of it has failed (absent while it succeeds). */
  failingSince?: string;
  /** The failure (its `failingSince`) whose devices were flagged stale. */
  staleFlaggedFor?: string;
  /** Devices its last successful listing reported (after skips and duplicates). */
  devices: number;
  /** Records of its last listing skipped, by reason. */
  skipped: Record<string, number>;
  /** Records of its last listing stored with a field cut, cleaned or renamed to fit its bound, by change. */
  adjusted?: Record<string, number>;
  /** Serial numbers it listed that an earlier provider of DEVICE_PROVIDERS listed too. */
  duplicates: number;
  /** Vendor requests, throttled waits and time waited in its last sync. */
  requests: number;
  throttledWaits: number;
  waitedMs: number;
  heldRemovals?: HeldRemovals;
  /** Listings in a row that failed on a paging bound (a page seen twice, the page budget spent); reset by a success. */
  pagingFailures?: number;
  /** After such a failure its listing is not tried before this (pagingBackoffMs). */
  backoffUntil?: string;
}

const REQUIRED_SIGHTINGS = 3;

/** The first wait after a listing failed on a paging bound: one scheduled sync period (5 minutes). */
export const PAGING_BACKOFF_BASE_MS = 5 * 60_000;
/** The longest such wait. */
export const PAGING_BACKOFF_CAP_MS = 4 * 3_600_000;

/**
 * How long a provider whose listing failed on a paging bound `failures` times in a row is left
 * alone: the base, doubled for each further failure, capped (docs/guide/rules/inventory.md "Vendor paging: a page seen twice ends a listing; a page budget from the fleet held; backoff").
 */
export const pagingBackoffMs = (failures: number): number =>
  Math.min(PAGING_BACKOFF_CAP_MS, PAGING_BACKOFF_BASE_MS * 2 ** Math.min(Math.max(0, failures - 1), 20));

/** Whether a provider is backing off at `now`: its listing is not tried this sync. */
export const backingOff = (status: Pick<ProviderStatus, 'backoffUntil'>, now: number): boolean =>
  status.backoffUntil !== undefined && Date.parse(status.backoffUntil) > now;

export const emptyStatus = (name: string): ProviderStatus => ({ name, devices: 0, skipped: {}, duplicates: 0, requests: 0, throttledWaits: 0, waitedMs: 0 });

const listingHashOf = (serials: readonly string[]): string => createHash('sha256').update([...serials].sort().join('\n')).digest('base64url').slice(0, 22);

/**
 * The removal guard: removals of more than `maxPercent` of a provider's devices wait until the
 * same removals are seen in REQUIRED_SIGHTINGS consecutive syncs. `known` is how many devices the
 * provider had (its last successful listing, at least what it lists now; none known: all of
 * these). Answers whether to remove now and the hold to remember otherwise.
 */
export const removalVerdict = (input: {
  removing: readonly string[];
  known: number;
  maxPercent: number;
  pending: HeldRemovals | undefined;
  now: string;
}): { apply: boolean; held?: HeldRemovals } => {
  const { removing, maxPercent, pending, now } = input;
  if (removing.length === 0) return { apply: true };
  const base = input.known > 0 ? input.known : removing.length;
  if (removing.length * 100 <= maxPercent * base) return { apply: true };
  const listingHash = listingHashOf(removing);
  const seen = pending?.listingHash === listingHash ? pending.seen + 1 : 1;
  if (seen >= REQUIRED_SIGHTINGS) return { apply: true };
  return { apply: false, held: { count: removing.length, seen, listingHash, since: pending?.listingHash === listingHash ? pending.since : now } };
};

/** Since when a provider failing since `failingSince` counts as stale; undefined while it is not (yet). */
export const staleSince = (failingSince: string | undefined, staleMinutes: number, now: number): string | undefined => {
  if (!failingSince) return undefined;
  const since = Date.parse(failingSince) + staleMinutes * 60_000;
  return since <= now ? new Date(since).toISOString() : undefined;
};

/** A failure's message with anything shaped like a credential cut out (defence in depth: ours carry none). */
export const sanitise = (message: string): string =>
  message
    .replace(/(bearer|basic)\s+[^\s,;]+/gi, '$1 [redacted]')
    .replace(/((?:access|refresh)_token|client_secret|secret|password|token)=([^&\s]+)/gi, '$1=[redacted]')
    .slice(0, 500);
