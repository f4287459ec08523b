import { historyExpiry } from '#lib/alarms/settings';
import { connectivity } from '#lib/db/connectivity';
import { devices } from '#lib/db/devices';
import { rooms } from '#lib/db/rooms';
import { NotFound, ServiceUnavailable } from '#lib/errors';
import { mapConcurrent } from '#lib/shared/concurrency';
import { connectivityTransitions } from './availability';
import { rollupBeforeWrite } from './connectivity';
import { expectedAggregates, placeKey, planSync, staleRooms } from './plan';
import { ProviderError, type DeviceProvider } from './provider';
import { toDevice, type Device, type Place } from './types';

export interface SyncResult {
  devices: number;
  upserted: number;
  removed: number;
  roomsRecomputed: number;
}

/**
 * One inventory sync (DESIGN §3, §6): record the connectivity transitions it observes, upsert
 * what changed, remove what vanished, then recompute every room a write touched and every room
 * whose stored aggregate disagrees with the inventory (so a sync also heals aggregates an
 * interrupted run left behind), each room's availability rollup brought up to date first.
 * Transitions are written before the devices: a run cut short is repeated by the next sync.
 */
export const syncDevices = async (provider: DeviceProvider): Promise<SyncResult> => {
  const [incoming, stored] = await Promise.all([provider.listDevices(), devices.index()]);
  const plan = planSync(stored, incoming);
  await connectivity.record(connectivityTransitions(stored, plan.puts, new Date().toISOString()), historyExpiry);
  await devices.writeAll(plan.puts, plan.deletes);
  const stale = staleRooms(await rooms.inScope({}), expectedAggregates(plan.fleet));
  const toRecompute = new Map<string, Place>([...plan.touched, ...stale].map((place) => [placeKey(place), place]));
  await mapConcurrent([...toRecompute.values()], 8, (place) => rooms.recompute(place, rollupBeforeWrite));
  return { devices: plan.fleet.length, upserted: plan.puts.length, removed: plan.vanished, roomsRecomputed: toRecompute.size };
};

export interface RefreshedDevice extends Device {
  refreshInfo: { lastRefresh: string };
}

/** Asks the provider for one device's live state, stores it, fixes its room's counts, answers it. */
export const refreshDevice = async (provider: DeviceProvider, devicesn: string): Promise<RefreshedDevice> => {
  const before = await devices.get(devicesn);
  const live = await provider.getDevice(devicesn).catch((error: unknown) => {
    if (error instanceof ProviderError) throw new ServiceUnavailable(`${error.message}; retry later`);
    throw error;
  });
  if (!live) throw new NotFound(`Device ${devicesn} is no longer reported by the device provider`);
  const lastRefresh = new Date().toISOString();
  const after = before.alarmSeverity === undefined ? live : { ...live, alarmSeverity: before.alarmSeverity };
  await connectivity.record(connectivityTransitions([before], [after], lastRefresh), historyExpiry);
  await devices.put(after, lastRefresh);
  const moved = placeKey(before.details) !== placeKey(after.details);
  if (moved) await devices.remove(before);
  await Promise.all([rooms.recompute(after.details, rollupBeforeWrite), moved ? rooms.recompute(before.details, rollupBeforeWrite) : undefined]);
  return { ...toDevice(after), refreshInfo: { lastRefresh } };
};
