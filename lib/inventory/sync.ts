import * as connectivity from '#lib/devices/repository/connectivity';
import { devices } from '#lib/devices/repository/devices';
import { evaluationQueue } from '#lib/alarms/repository/evaluationQueue';
import { openWatchersHint, roomKey, withAlarmFieldsOf, type Place, type ProviderDevice, type StoredDevice } from '#lib/devices/types';
import { logger } from '#lib/shared/log';
import { recordWork } from '#lib/shared/metrics';
import { rollupBeforeWrite } from '#lib/rollups/availability';
import { healSummaries, recountRooms } from '#lib/rollups/recount';
import { historyExpiry } from '#lib/shared/retention';
import type { DeviceProvider } from './provider/index';
import { fitDevices } from './pure/names';
import { connectivityChanges, planSync } from './pure/syncPlan';
import { readStoredSide } from './storedSide';
import type { VendorRoomDevice } from './entities';
import { directoryChanges } from './pure/vendorRooms';
import { writeDirectory } from './repository/vendorRooms';
import { applyKeptEvents } from './roomEvents';

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
 * whose fingerprint differs, or everything on a full sync: lib/inventory/storedSide.ts), record the
 * connectivity changes it observes, queue the changed devices for the alarm engine, upsert
 * what changed, remove what vanished, then recompute every room a write touched and every room
 * compared whose stored aggregate disagrees with its devices (so a sync also heals aggregates an
 * interrupted run left behind), each room's availability rollup brought up to date first, and
 * last the fingerprints of what is now stored. Connectivity changes and queue entries are written before
 * the devices, fingerprints after the rooms: a run cut short is repeated by the next sync. The
 * caller evaluates the queue (`runQueue`, lib/alarms/engine/runPasses.ts).
 */
export const syncDevices = async (provider: DeviceProvider): Promise<SyncResult> => {
  const listedAt = new Date().toISOString();
  return syncListing(await provider.listDevices(), { listedAt });
};

/** What a sync of several providers adds to one listing (lib/inventory/providers.ts). */
interface SyncScope {
  /** Serial numbers the providers themselves could not read: their stored devices stay as they are. */
  unreadable?: readonly string[];
  /** Stored devices to hold, neither updated nor removed (their provider's listing failed). */
  holds?: (device: StoredDevice) => boolean;
  /** The removal guard: of the devices the listing would remove, the serial numbers to keep for now. */
  guard?: (removed: readonly StoredDevice[]) => Promise<ReadonlySet<string>>;
  /** Held devices to flag stale: since when, by vendor (the sync is then a full one, to reach them all). */
  stale?: ReadonlyMap<string, string>;
  /** When the listing was asked for (ISO 8601): a kept vendor event newer than it is applied after the writes. */
  listedAt?: string;
}

/** One sync of a listing already in hand (several providers' devices, merged). */
export const syncListing = async (listed: readonly ProviderDevice[], scope: SyncScope = {}): Promise<SyncResult> => {
  const listedAt = scope.listedAt ?? new Date().toISOString();
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
  // what the listing read, before held devices of a failing provider join the puts (nothing observed them)
  const observed = { at: listedAt, serials: new Set(plan.puts.map((d) => d.devicesn)) };
  plan.puts.push(...flagStale(side.held, scope.stale));
  // held devices flagged stale are among the puts: compared with themselves, no transition
  await connectivity.record(connectivityChanges([...side.stored, ...side.held], plan.puts, new Date().toISOString()), historyExpiry);
  // queued before the writes: a run that dies after them still leaves the alarm engine its work
  const written = new Set(plan.puts.map((d) => d.devicesn));
  await evaluationQueue.addDevices([
    ...plan.puts.map((d) => ({ devicesn: d.devicesn, device: d, alarmWatchers: openWatchersHint(d) })),
    ...plan.deletes.filter((d) => !written.has(d.devicesn)).map((d) => ({ devicesn: d.devicesn, alarmWatchers: openWatchersHint(d) })),
  ]);
  await side.markWrites([...plan.puts, ...plan.deletes]);
  await devices.syncWrite(plan.puts, plan.deletes, observed);
  // the vendor room directory follows the devices written (a moved device leaves its old room's entry)
  const rewritten = new Set(plan.puts.map((d) => d.devicesn));
  const directory = directoryChanges(plan.puts, [...plan.deletes, ...side.stored.filter((d) => rewritten.has(d.devicesn))]);
  await writeDirectory(directory);
  const stale = side.drifted;
  const toRecompute = new Map<string, Place>([...plan.touched, ...stale].map((place) => [roomKey(place), place]));
  await recountRooms(toRecompute.values(), rollupBeforeWrite);
  // an aggregate that had drifted means an interrupted run: its summaries may have drifted too
  if (stale.length > 0) await healSummaries();
  await side.commit();
  await applyEventsKeptFor(directory.put, listedAt);
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

/**
 * The events kept for vendor rooms this sync wrote devices of (they arrived before the directory
 * knew the room): applied when newer than the listing. A failure leaves them kept for the next sync.
 */
const applyEventsKeptFor = async (entries: readonly VendorRoomDevice[], listedAt: string): Promise<void> => {
  const rooms = [...new Map(entries.map(({ vendor, room }) => [`${vendor}#${room}`, { vendor, room }])).values()];
  if (rooms.length === 0) return;
  await applyKeptEvents(rooms, listedAt).catch((error: unknown) => logger.warn('kept vendor events not applied; the next sync tries again', { error: String(error) }));
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

/** Runs one sync and publishes its figures (any sync: one provider, or several: lib/inventory/providers.ts). */
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
