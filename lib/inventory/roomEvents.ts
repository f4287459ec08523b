import { mapConcurrent } from '#lib/shared/concurrency';
import { applyConnectivity } from './observe';
import { devicesConcerned } from './pure/vendorRooms';
import * as events from './repository/vendorEvents';
import { devicesOfRoom } from './repository/vendorRooms';

/*
 * A vendor room's connectivity events applied to our devices of that room (the vendor room
 * directory says which): at once by the receiver (lib/inventory/vendorEvents.ts), or, for an event
 * about a room the directory did not know yet, after the sync that wrote the room's devices.
 */

type Applied = 'applied' | 'stale' | 'unknownRoom';

/**
 * Applies a room's connectivity event to the devices of the room the directory lists and the event
 * concerns (lib/inventory/pure/vendorRooms.ts), through the one write path of observed connectivity:
 * 'unknownRoom' when the directory lists none of the room's devices yet (the event is kept for the
 * next sync), 'stale' when every device concerned holds a newer observation.
 */
export const applyToDevices = async (vendor: string, room: string, change: { connected: boolean; component?: string }, at: number): Promise<Applied> => {
  const entries = await devicesOfRoom(vendor, room);
  if (entries.length === 0) return 'unknownRoom';
  const serials = devicesConcerned(entries, change.component);
  if (serials.length === 0) return 'stale';
  const observed = new Date(at).toISOString();
  const places = new Map(entries.flatMap((entry) => (entry.place ? [[entry.devicesn, entry.place] as const] : [])));
  const outcome = await applyConnectivity(
    serials.map((devicesn) => ({ devicesn, connected: change.connected, at: observed, source: 'event' as const, ...(places.has(devicesn) ? { place: places.get(devicesn)! } : {}) })),
  );
  return outcome.applied.length > 0 ? 'applied' : outcome.stale.length > 0 ? 'stale' : 'unknownRoom';
};

const isConnectivity = (change: Record<string, unknown>): change is { kind: 'connectivity'; connected: boolean; component?: string } =>
  change.kind === 'connectivity' && typeof change.connected === 'boolean' && (change.component === undefined || typeof change.component === 'string');

/**
 * After a sync wrote devices of these vendor rooms: the events kept for them (`unknownRoom`) are
 * applied when newer than the sync's listing (`listedAt`), oldest first; an older one is what the
 * listing already superseded, and is settled stale. Answers how many were applied.
 */
export const applyKeptEvents = async (rooms: readonly { vendor: string; room: string }[], listedAt: string): Promise<number> => {
  const listed = Date.parse(listedAt);
  const applied = await mapConcurrent(rooms, 4, async ({ vendor, room }) => {
    let count = 0;
    for (const kept of await events.keptEvents(vendor, room)) {
      const outcome = isConnectivity(kept.change) && kept.at > listed ? await applyToDevices(vendor, room, kept.change, kept.at) : 'stale';
      // still no device of the room known: kept for a later sync
      if (outcome === 'unknownRoom') continue;
      await events.settle(kept, outcome);
      if (outcome === 'applied') count++;
    }
    return count;
  });
  return applied.reduce((sum, n) => sum + n, 0);
};
