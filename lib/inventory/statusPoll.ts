import { devices } from '#lib/devices/repository/devices';
import type { Place, StoredDevice } from '#lib/devices/types';
import * as rooms from '#lib/rollups/repository/rooms';
import { mapConcurrent } from '#lib/shared/concurrency';
import { holdLease } from '#lib/shared/lease';
import { logger } from '#lib/shared/log';
import { recordWork } from '#lib/shared/metrics';
import { syncRuns } from '#lib/store/leases';
import { applyConnectivity } from './observe';
import { newMeter, type NamedProvider } from './provider/index';
import { sanitise } from './pure/providerStatus';
import { compareStatus, toLookUp } from './pure/statusPoll';
import * as providerStatuses from './repository/providers';
import * as polls from './repository/statusPolls';

/*
 * Status polls between syncs (docs/guide/rules/inventory.md "Status polls between syncs"): each
 * provider with a status filter is asked only what is not connected, compared with what we hold,
 * and a difference is written through the shared connectivity path (lib/inventory/observe.ts),
 * which never rewinds a newer observation (a pushed event, a refresh). Only connectivity is
 * written: a poll reads nothing else. The sync stays the reconciliation, on its slower schedule.
 */

export interface ProviderPoll {
  name: string;
  ok: boolean;
  /** Vendor requests this poll sent. */
  requests: number;
  /** Devices whose connectivity the poll saw differ from what was stored. */
  observed: number;
  /** Of those, written (the rest held a newer observation, or were removed meanwhile). */
  applied: number;
  error?: string;
}

export interface StatusPollResult {
  providers: ProviderPoll[];
}

/** The devices we hold not connected: those of the rooms whose aggregate counts one (O(rooms) small items, then those rooms). */
const heldNotConnected = async (within: Partial<Place>): Promise<StoredDevice[]> => {
  const out = (await rooms.inPlace(within)).filter((room) => room.offline > 0);
  const inRooms = await mapConcurrent(out, 16, (room) => devices.inRoom(room));
  return inRooms.flat().filter((device) => !device.status.connected);
};

interface PollOptions {
  /** The part of the inventory compared (default all of it; tests: their own region of a shared table). */
  within?: Partial<Place>;
}

/** One status poll of every provider that has a status filter (the others are left to their syncs). */
export const pollStatuses = async (providers: readonly NamedProvider[], options: PollOptions = {}): Promise<StatusPollResult> => {
  const polled = providers.filter(({ provider }) => provider.pollStatus !== undefined);
  if (polled.length === 0) return { providers: [] };
  const firstProvider = providers[0]!.name;
  const within = options.within ?? {};
  const [held, statuses] = await Promise.all([heldNotConnected(within), providerStatuses.all()]);
  const outcome = await Promise.all(
    polled.map(async ({ name, provider }): Promise<ProviderPoll> => {
      const meter = newMeter();
      // the time the vendor was asked: an observation newer than it (a pushed event) wins
      const at = new Date().toISOString();
      try {
        const ours = held.filter((device) => (device.vendor ?? firstProvider) === name);
        const reading = await provider.pollStatus!(ours, meter, { fleet: statuses.get(name)?.devices });
        const listed = (await devices.find(toLookUp(reading, ours))).filter((device) => inPlace(device.details, within));
        const changes = compareStatus({ vendor: name, firstProvider, reading, heldNotConnected: ours, listed });
        const { applied } = changes.length > 0 ? await applyConnectivity(changes.map((change) => ({ ...change, at, source: 'poll' as const }))) : { applied: [] };
        await polls.record(name, { at, requests: meter.requests, changes: applied.length });
        if (changes.length > 0) logger.info('status poll', { provider: name, observed: changes.length, applied: applied.length, requests: meter.requests });
        return { name, ok: true, requests: meter.requests, observed: changes.length, applied: applied.length };
      } catch (error) {
        const message = sanitise(error instanceof Error ? error.message : String(error));
        // a failed poll changes nothing: what we hold stays until the next poll or sync
        logger.warn('status poll failed; devices stay as stored', { provider: name, error: message });
        await polls.record(name, { at, requests: meter.requests, changes: 0, error: message });
        return { name, ok: false, requests: meter.requests, observed: 0, applied: 0, error: message };
      }
    }),
  );
  await recordWork('sync', {
    StatusPolls: outcome.length,
    StatusPollsFailed: outcome.filter((p) => !p.ok).length,
    StatusPollRequests: outcome.reduce((sum, p) => sum + p.requests, 0),
    StatusPollChanges: outcome.reduce((sum, p) => sum + p.applied, 0),
  });
  return { providers: outcome };
};

const inPlace = (place: Place, within: Partial<Place>): boolean =>
  (within.region === undefined || place.region === within.region) &&
  (within.location === undefined || place.location === within.location) &&
  (within.room === undefined || place.room === within.room);

type LeasedPoll = { ran: true; result: StatusPollResult } | { ran: false; reason: 'busy' | 'no provider' };

/**
 * A status poll under the sync's lease (lib/store/leases.ts): never beside a sync, nor beside
 * another poll, so a poll and a sync never write the same devices against each other. A poll that
 * finds the lease held does nothing (the sync running reads everything anyway); the lease's start
 * time stays the sync's (the poll is unpaced).
 */
export const pollAlone = async (providers: readonly NamedProvider[], options: PollOptions = {}): Promise<LeasedPoll> => {
  if (!providers.some(({ provider }) => provider.pollStatus !== undefined)) return { ran: false, reason: 'no provider' };
  const result = await holdLease(syncRuns, () => pollStatuses(providers, options), { unpaced: true });
  return result ? { ran: true, result } : { ran: false, reason: 'busy' };
};
