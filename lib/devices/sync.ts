import { historyExpiry } from '#lib/alarms/settings';
import * as connectivity from '#lib/db/connectivity';
import { deviceNotFound, devices } from '#lib/db/devices';
import { evaluationQueue } from '#lib/db/evaluationQueue';
import { NotFound, ServiceUnavailable } from '#lib/errors';
import { logger } from '#lib/log';
import { recordWork } from '#lib/observability/metrics';
import { placeInScope, type AccessScope } from '#lib/shared/access';
import { connectivityTransitions } from './availability';
import { rollupBeforeWrite } from './connectivity';
import { fitDevices, unfitField } from './names';
import { placeKey, planSync } from './plan';
import { ProviderError, type DeviceProvider } from './provider';
import { healSummaries, recountRooms } from './recount';
import { readStoredSide } from './storedSide';
import { openWatchersHint, toDevice, withAlarmFieldsOf, type Device, type Place, type ProviderDevice, type StoredDevice } from './types';

export interface SyncResult {
  devices: number;
  upserted: number;
  removed: number;
  roomsRecomputed: number;
  /** Provider records skipped for a malformed name (logged); their stored devices stay as they were. */
  skipped: number;
  /** The whole stored inventory was compared (else only the rooms whose fingerprint differs). */
  full: boolean;
  /** Rooms whose stored devices were read. */
  roomsRead: number;
}

/**
 * One inventory sync (DESIGN §3, §6): compare the provider's list with the stored side (the rooms
 * whose fingerprint differs, or everything on a full sync: lib/devices/storedSide.ts), record the
 * connectivity transitions it observes, queue the changed devices for the alarm engine, upsert
 * what changed, remove what vanished, then recompute every room a write touched and every room
 * compared whose stored aggregate disagrees with its devices (so a sync also heals aggregates an
 * interrupted run left behind), each room's availability rollup brought up to date first, and
 * last the fingerprints of what is now stored. Transitions and queue entries are written before
 * the devices, fingerprints after the rooms: a run cut short is repeated by the next sync. The
 * caller evaluates the queue (`runEvaluation({mode: 'queue'})`).
 */
export const syncDevices = async (provider: DeviceProvider): Promise<SyncResult> => syncListing(await provider.listDevices());

/** What a sync of several providers adds to one listing (lib/devices/providers.ts). */
export interface SyncScope {
  /** Serial numbers the providers themselves could not read: their stored devices stay as they are. */
  unreadable?: readonly string[];
  /** Stored devices to hold, neither updated nor removed (their provider's listing failed). */
  holds?: (device: StoredDevice) => boolean;
  /** The removal guard: of the devices the listing would remove, the serial numbers to keep for now. */
  guard?: (removed: readonly StoredDevice[]) => Promise<ReadonlySet<string>>;
  /** Held devices to flag stale: since when, by vendor (the sync is then a full one, to reach them all). */
  stale?: ReadonlyMap<string, string>;
}

/** One sync of a listing already in hand (several providers' devices, merged). */
export const syncListing = async (listed: readonly ProviderDevice[], scope: SyncScope = {}): Promise<SyncResult> => {
  const { fit, skipped } = fitDevices(listed);
  for (const device of skipped) logger.warn('device skipped by the sync: malformed name', { field: device.field, devicesn: device.devicesn });
  // a device the provider reported unreadably is neither updated nor removed this time
  // (one whose serial number itself is malformed was never stored: there is nothing to hold)
  const unreadable = new Set([...skipped.filter((device) => device.field !== 'devicesn').map((device) => device.devicesn), ...(scope.unreadable ?? [])]);
  const side = await readStoredSide(fit, unreadable, { holds: scope.holds, full: (scope.stale?.size ?? 0) > 0 });
  let plan = planSync(side.stored, side.incoming);
  const kept = scope.guard && plan.removed.length > 0 ? await scope.guard(plan.removed) : new Set<string>();
  if (kept.size > 0) {
    side.hold(plan.removed.filter((device) => kept.has(device.devicesn)));
    plan = planSync(side.stored.filter((device) => !kept.has(device.devicesn)), side.incoming);
  }
  // a full sync read the stored side through an index, which lags: the alarm fields it carries
  // into its whole-item puts (and their queue copies) are taken from the table by key (DESIGN §3)
  if (side.full) await carryCurrentAlarmFields(plan.puts);
  plan.puts.push(...flagStale(side.held, scope.stale));
  // held devices flagged stale are among the puts: compared with themselves, no transition
  await connectivity.record(connectivityTransitions([...side.stored, ...side.held], plan.puts, new Date().toISOString()), historyExpiry);
  // queued before the writes: a run that dies after them still leaves the alarm engine its work
  const written = new Set(plan.puts.map((d) => d.devicesn));
  await evaluationQueue.addDevices([
    ...plan.puts.map((d) => ({ devicesn: d.devicesn, device: d, alarmWatchers: openWatchersHint(d) })),
    ...plan.deletes.filter((d) => !written.has(d.devicesn)).map((d) => ({ devicesn: d.devicesn, alarmWatchers: openWatchersHint(d) })),
  ]);
  await side.markWrites([...plan.puts, ...plan.deletes]);
  await devices.syncWrite(plan.puts, plan.deletes);
  const stale = side.drifted;
  const toRecompute = new Map<string, Place>([...plan.touched, ...stale].map((place) => [placeKey(place), place]));
  await recountRooms(toRecompute.values(), rollupBeforeWrite);
  // an aggregate that had drifted means an interrupted run: its summaries may have drifted too
  if (stale.length > 0) await healSummaries();
  await side.commit();
  return {
    devices: new Set(fit.map((d) => d.devicesn)).size,
    upserted: plan.puts.length,
    removed: plan.vanished,
    roomsRecomputed: toRecompute.size,
    skipped: skipped.length,
    full: side.full,
    roomsRead: side.roomsRead,
  };
};

/** Sets each device's alarm fields to what the table holds for it now (devices not stored yet keep none). */
const carryCurrentAlarmFields = async (puts: StoredDevice[]): Promise<void> => {
  const current = new Map((await devices.at(puts.map((d) => ({ devicesn: d.devicesn, place: d.details })))).map((d) => [d.devicesn, d]));
  puts.forEach((put, i) => {
    const stored = current.get(put.devicesn);
    if (stored) puts[i] = withAlarmFieldsOf(put, stored);
  });
};

/** Held devices of a vendor failing past its stale time, not flagged yet: written with `staleSince`. */
const flagStale = (held: readonly StoredDevice[], stale: ReadonlyMap<string, string> | undefined): StoredDevice[] =>
  stale ? held.filter((d) => d.vendor !== undefined && stale.has(d.vendor) && d.staleSince === undefined).map((d) => ({ ...d, staleSince: stale.get(d.vendor!)! })) : [];

/**
 * A sync with its figures published (area `sync`, docs/operations.md): runs, failures, duration,
 * devices changed, fleet size, and the provider records skipped for a malformed name.
 */
export const syncAndReport = (provider: DeviceProvider): Promise<SyncResult> => reportSync(() => syncDevices(provider));

/** Runs one sync and publishes its figures (any sync: one provider, or several: lib/devices/providers.ts). */
export const reportSync = async <R extends SyncResult>(run: () => Promise<R>): Promise<R> => {
  const startedAt = Date.now();
  const result = await run().catch(async (error: unknown) => {
    await recordWork('sync', { SyncRuns: 1, SyncFailed: 1, SyncDuration: [Date.now() - startedAt, 'Milliseconds'] });
    throw error;
  });
  await recordWork('sync', {
    SyncRuns: 1,
    SyncFailed: 0,
    SyncDuration: [Date.now() - startedAt, 'Milliseconds'],
    DevicesChanged: result.upserted + result.removed,
    Devices: result.devices,
    DevicesSkippedInvalid: result.skipped,
  });
  return result;
};

export interface RefreshedDevice extends Device {
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
  if (!placeInScope(access, before.details)) throw deviceNotFound(devicesn);
  const live = await provider.getDevice(devicesn, before).catch((error: unknown) => {
    if (error instanceof ProviderError) throw new ServiceUnavailable(`${error.message}; retry later`);
    throw error;
  });
  if (!live) throw new NotFound(`Device ${devicesn} is no longer reported by the device provider`);
  const unfit = unfitField(live);
  if (unfit) throw new ServiceUnavailable(`the device provider answered a malformed ${unfit} for device ${devicesn}; retry later`);
  const lastRefresh = new Date().toISOString();
  const after: StoredDevice = withAlarmFieldsOf(live, before);
  await connectivity.record(connectivityTransitions([before], [after], lastRefresh), historyExpiry);
  const work = [{ devicesn, device: after, alarmWatchers: openWatchersHint(before) }];
  await evaluationQueue.addDevices(work);
  await devices.storeReported(after, lastRefresh, before);
  const moved = placeKey(before.details) !== placeKey(after.details);
  if (moved) await devices.remove(before);
  // queued before the write (a crash after it still leaves the work) and again after it: a sync
  // that wrote this device between the provider's answer and this write queued its older state
  // later than our first entry, and the engine evaluates the newest entry, which must be what is stored
  await evaluationQueue.addDevices(work);
  await recountRooms(moved ? [after.details, before.details] : [after.details], rollupBeforeWrite);
  if (!placeInScope(access, after.details)) throw deviceNotFound(devicesn);
  return { ...toDevice(after), refreshInfo: { lastRefresh } };
};
