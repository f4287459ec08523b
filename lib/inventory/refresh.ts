import * as connectivity from '#lib/devices/repository/connectivity';
import { devices } from '#lib/devices/repository/devices';
import { evaluationQueue } from '#lib/alarms/repository/evaluationQueue';
import { deviceNotFound, openWatchersHint, roomKey, toDevice, withAlarmFieldsOf, type Device, type StoredDevice } from '#lib/devices/types';
import { NotFound, ServiceUnavailable } from '#lib/shared/errors';
import { rollupBeforeWrite } from '#lib/rollups/availability';
import { recountRooms } from '#lib/rollups/recount';
import { placeInAccessScope, type AccessScope } from '#lib/shared/access';
import { historyExpiry } from '#lib/shared/retention';
import { ProviderError, type DeviceProvider } from './provider/index';
import { boundDevice } from './pure/names';
import { connectivityChanges } from './pure/syncPlan';

interface RefreshedDevice extends Device {
  refreshInfo: { lastRefresh: string };
}

/**
 * Asks the provider for one device's live state, stores it, fixes its room's counts, answers it.
 * It starts from the device as the table holds it (not the index's copy) and writes only what
 * the provider reports: the alarm engine's fields stay as the engine last wrote them. A device
 * outside the caller's scope (`access`) is 404 before any provider is asked; one the provider
 * reports moved out of it is stored, then 404 too (the caller may not read where it went).
 */
export const refreshDevice = async (provider: DeviceProvider, devicesn: string, access: AccessScope = []): Promise<RefreshedDevice> => {
  const before = await devices.current(devicesn);
  if (!placeInAccessScope(access, before.details)) throw deviceNotFound(devicesn);
  const live = await provider.getDevice(devicesn, before).catch((error: unknown) => {
    if (error instanceof ProviderError) throw new ServiceUnavailable(`${error.message}; retry later`);
    throw error;
  });
  if (!live) throw new NotFound(`Device ${devicesn} is no longer reported by the device provider`);
  // the same field bounds as the sync's: a key field unusable is no answer, a long text is cut
  const bounded = boundDevice(live);
  if ('skip' in bounded) throw new ServiceUnavailable(`the device provider answered a malformed ${bounded.field} for device ${devicesn}; retry later`);
  const lastRefresh = new Date().toISOString();
  const after: StoredDevice = withAlarmFieldsOf(bounded.device, before);
  await connectivity.record(connectivityChanges([before], [after], lastRefresh), historyExpiry);
  const work = [{ devicesn, device: after, alarmWatchers: openWatchersHint(before) }];
  await evaluationQueue.addDevices(work);
  await devices.storeReported(after, lastRefresh, before);
  const moved = roomKey(before.details) !== roomKey(after.details);
  if (moved) await devices.remove(before);
  // queued before the write (a crash after it still leaves the work) and again after it: a sync
  // that wrote this device between the provider's answer and this write queued its older state
  // later than our first entry, and the engine evaluates the newest entry, which must be what is stored
  await evaluationQueue.addDevices(work);
  await recountRooms(moved ? [after.details, before.details] : [after.details], rollupBeforeWrite);
  if (!placeInAccessScope(access, after.details)) throw deviceNotFound(devicesn);
  return { ...toDevice(after), refreshInfo: { lastRefresh } };
};
