import * as connectivity from '#lib/devices/repository/connectivity';
import type { Place, RoomAggregate } from '#lib/devices/types';
import { ServiceUnavailable } from '#lib/shared/errors';
import { historyExpiry } from '#lib/shared/retention';
import { advance, type RoomCounts } from './pure/availability';

const MAX_ATTEMPTS = 6;
const dayExpiry = (day: string) => historyExpiry(`${day}T23:59:59.999Z`);

/**
 * Brings a room's availability rollup up to `at` with its new counts (a room aggregate about to
 * be written). Nothing is written when the counts did not change. Retried when another writer
 * moved the rollup meanwhile.
 */
export const recordRoomCounts = async (place: Place, counts: RoomCounts, at: string): Promise<void> => {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const latest = await connectivity.latestRollup(place);
    if (latest && latest.connected === counts.connected && latest.observed === counts.observed) return;
    if (await connectivity.writeRollups(place, latest, advance(latest, at, counts), dayExpiry)) return;
  }
  throw new ServiceUnavailable(`room ${place.room} kept changing while its availability was recorded; retry`);
};

/** The `beforeWrite` of a room recompute that keeps its availability rollup current. */
export const rollupBeforeWrite = (aggregate: RoomAggregate): Promise<void> =>
  recordRoomCounts(aggregate, { connected: aggregate.online, observed: aggregate.deviceCount }, new Date().toISOString());
