import { devices } from '#lib/db/devices';
import { rooms } from '#lib/db/rooms';
import { NotFound, ServiceUnavailable } from '#lib/errors';
import { mapConcurrent } from '#lib/shared/concurrency';
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
 * One inventory sync (DESIGN §3, §6): upsert what changed, remove what vanished, then
 * recompute every room a write touched and every room whose stored aggregate disagrees with
 * the inventory (so a sync also heals aggregates an interrupted run left behind).
 */
export const syncDevices = async (provider: DeviceProvider): Promise<SyncResult> => {
  const [incoming, stored] = await Promise.all([provider.listDevices(), devices.index()]);
  const plan = planSync(stored, incoming);
  await devices.writeAll(plan.puts, plan.deletes);
  const stale = staleRooms(await rooms.inScope({}), expectedAggregates(plan.fleet));
  const toRecompute = new Map<string, Place>([...plan.touched, ...stale].map((place) => [placeKey(place), place]));
  await mapConcurrent([...toRecompute.values()], 8, (place) => rooms.recompute(place));
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
  await devices.put(after, lastRefresh);
  const moved = placeKey(before.details) !== placeKey(after.details);
  if (moved) await devices.remove(before);
  await Promise.all([rooms.recompute(after.details), moved ? rooms.recompute(before.details) : undefined]);
  return { ...toDevice(after), refreshInfo: { lastRefresh } };
};
