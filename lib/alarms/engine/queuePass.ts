import { randomUUID } from 'node:crypto';
import type { OpenAlarm } from '#lib/alarms/types';
import * as alarms from '#lib/alarms/repository/alarms';
import { devices } from '#lib/devices/repository/devices';
import { evaluationQueue, type DeviceWork, type QueuedEvaluation } from '#lib/alarms/repository/evaluationQueue';
import * as watchers from '#lib/watchers/repository';
import { openWatchersHint, roomKey, uniquePlaces, type Place, type StoredDevice } from '#lib/devices/types';
import { NotFound } from '#lib/shared/errors';
import { recountRooms, shiftRooms } from '#lib/rollups/recount';
import { mapConcurrent } from '#lib/shared/concurrency';
import type { WatcherRecord } from '#lib/watchers/types';
import { applyPlan, type Applied } from './applyPlan';
import { inhibit } from '#lib/alarms/inhibition/suppress';
import { pass, tally, type EvaluationSummary, type PassOptions } from './pass';
import { quietAt, type Quiet } from './quiet';
import { planAlarms } from './pure/plan';

type DeviceEntry = Extract<QueuedEvaluation, { kind: 'device' }>;
type WatcherEntry = Extract<QueuedEvaluation, { kind: 'watcher' }>;

const bySerial = async (devicesn: string): Promise<StoredDevice | undefined> => {
  try {
    return await devices.get(devicesn);
  } catch (error) {
    if (error instanceof NotFound) return undefined;
    throw error;
  }
};

/** The devices a watcher targets, plus those its open alarms are on (so an untargeted one clears as resolved). */
const watcherDevices = async (watcher: WatcherRecord, openOn: readonly string[]): Promise<StoredDevice[]> => {
  if (watcher.allDevices) return devices.index();
  const wanted = [...new Set([...watcher.devicesId, ...openOn])];
  const found = await mapConcurrent(wanted, 16, bySerial);
  // devicesId may name a device id rather than a serial number: only the inventory knows those
  if (watcher.devicesId.some((id, i) => found[i] === undefined && id !== '')) {
    const named = new Set(watcher.devicesId);
    return (await devices.index()).filter((d) => named.has(d.deviceid) || named.has(d.devicesn) || openOn.includes(d.devicesn));
  }
  return found.filter((device): device is StoredDevice => device !== undefined);
};

/**
 * One watcher alone over its targets (created, changed, (de)activated or deleted): its own
 * alarm transitions. The devices it touched are queued first, so their severities and rooms
 * follow in the device pass even if this run dies after the alarm writes.
 */
const evaluateWatcher = async (watcherId: string, all: readonly WatcherRecord[], quiet: Quiet, at: string, inTime: () => boolean): Promise<Applied> => {
  const watcher = all.find((w) => w.id === watcherId);
  const open = await alarms.openOf(watcherId);
  const targets = watcher?.active
    ? await watcherDevices(watcher, open.map((a) => a.devicesn))
    : (await mapConcurrent(open, 16, (alarm) => bySerial(alarm.devicesn))).filter((device): device is StoredDevice => device !== undefined);
  const plan = await inhibit(planAlarms({ watchers: watcher ? [watcher] : [], devices: targets, open, now: at, ...quiet }), all, at);
  const stored = new Map(targets.map((d) => [d.devicesn, d]));
  const touched = [...plan.raise.map((r) => r.alarm), ...plan.clear.map((c) => c.alarm), ...plan.update].map((a) => a.devicesn);
  const work: DeviceWork[] = [...new Set(touched)].map((devicesn) => {
    const device = stored.get(devicesn);
    const hint = device ? openWatchersHint(device) : [];
    // copies read through an index may be older than the table: the device pass rereads them by key (DESIGN §3)
    return { devicesn, ...(device ? { device, reread: true } : {}), alarmWatchers: hint === 'any' ? 'any' : [...new Set([...hint, watcherId])] };
  });
  await evaluationQueue.addDevices(work);
  // only this watcher's alarms: severities and rooms follow in the device pass, which sees every watcher
  return applyPlan(plan, { devices: [], open, watchers: all }, at, inTime);
};

/**
 * Changed devices against every watcher: the devices as the queue carries them (no read), their
 * open alarms by key (only the watchers that may have one), planned and applied. O(changed
 * devices x their alarms).
 */
const evaluateDevices = async (
  entries: readonly DeviceEntry[],
  due: readonly OpenAlarm[],
  all: readonly WatcherRecord[],
  quiet: Quiet,
  at: string,
  inTime: () => boolean,
): Promise<Applied> => {
  const latest = new Map<string, DeviceEntry>();
  const hints = new Map<string, Set<string>>();
  for (const entry of entries) {
    const seen = latest.get(entry.devicesn);
    if (!seen || entry.order > seen.order) latest.set(entry.devicesn, entry);
    const hint = hints.get(entry.devicesn) ?? new Set<string>();
    for (const id of entry.alarmWatchers === 'any' ? all.map((w) => w.id) : entry.alarmWatchers) hint.add(id);
    hints.set(entry.devicesn, hint);
  }
  // devices the watcher pass queued from an index copy are read by key; one no longer where the
  // copy says (it moved a moment ago) is left for the entry its move queued
  const reread = [...latest.values()].filter((entry) => entry.reread && entry.device);
  const current = await devices.at(reread.map((entry) => ({ devicesn: entry.devicesn, place: entry.device!.details })));
  const found = new Set(current.map((device) => device.devicesn));
  for (const entry of reread) if (!found.has(entry.devicesn)) latest.delete(entry.devicesn);
  const copies = [...latest.values()].flatMap((entry) => (entry.device && !entry.reread ? [entry.device] : []));
  // pending alarms whose time came: their devices as stored now (by key), with that watcher asked
  const queued = new Set(latest.keys());
  const timed = due.filter((alarm) => !queued.has(alarm.devicesn));
  const present = [...copies, ...current, ...(await devices.at(timed.map((alarm) => ({ devicesn: alarm.devicesn, place: alarm }))))];
  for (const alarm of due) {
    const hint = hints.get(alarm.devicesn) ?? new Set<string>();
    hint.add(alarm.watcherId);
    hints.set(alarm.devicesn, hint);
  }
  // the watchers with an alarm on each queued copy's device as the table holds it now: a copy may
  // predate an alarm raised since, whose alarm must still be read and judged (the reread and the
  // timed devices were read by key just now)
  const storedNow = await devices.at(copies.map((device) => ({ devicesn: device.devicesn, place: device.details })));
  for (const device of [...present, ...storedNow]) {
    const hint = openWatchersHint(device);
    const known = hints.get(device.devicesn) ?? new Set<string>();
    for (const id of hint === 'any' ? all.map((w) => w.id) : hint) known.add(id);
    hints.set(device.devicesn, known);
  }
  const timedSerials = new Set(timed.map((alarm) => alarm.devicesn));
  const left = new Set(reread.filter((entry) => !found.has(entry.devicesn) && !timedSerials.has(entry.devicesn)).map((entry) => entry.devicesn));
  const pairs = [...hints].filter(([devicesn]) => !left.has(devicesn)).flatMap(([devicesn, ids]) => [...ids].map((watcherId) => ({ watcherId, devicesn })));
  const open = await alarms.openAmong(pairs);
  const plan = await inhibit(planAlarms({ watchers: all, devices: present, open, now: at, ...quiet }), all, at);
  // whole-item batches only when every device is exactly as its writer queued it
  return applyPlan(plan, { devices: present, open, watchers: all, asWritten: reread.length === 0 }, at, inTime);
};

/** What the queue pass did: the plans applied, the device entries it covered, and the rooms to recompute whole. */
interface QueuedOutcome {
  applied: Applied[];
  complete: boolean;
  /** Device entries evaluated: removed once their rooms are written. */
  covered: DeviceEntry[];
  /** Rooms of devices a run that died had claimed: recomputed from their devices, never moved by deltas. */
  recompute: Place[];
}

/**
 * Evaluates queued work that is due: watchers first (each alone, while `watchersInTime` holds:
 * the caller leaves them a share of the budget), then every queued device (each once, however
 * often it was queued), whatever the watchers left undone. A watcher's entries leave the queue
 * as soon as its evaluation finished, so every run makes progress and a run cut short never
 * redoes the watchers it finished; device changes are never starved by watcher work.
 * The device entries are claimed before the first write; entries an earlier run claimed and did
 * not finish have their rooms recomputed. The caller writes the rooms, then removes the covered
 * device entries (only if the whole pass finished).
 */
const evaluateDueWork = async (
  entries: readonly QueuedEvaluation[],
  duePending: readonly OpenAlarm[],
  at: string,
  inTime: () => boolean,
  watchersInTime: () => boolean = inTime,
): Promise<QueuedOutcome> => {
  const now = Date.parse(at);
  const due = entries.filter((entry) => entry.notBefore === undefined || entry.notBefore <= now);
  if (due.length === 0 && duePending.length === 0) return { applied: [], complete: true, covered: [], recompute: [] };
  const [all, quiet] = await Promise.all([watchers.list(), quietAt(at)]);
  const applied: Applied[] = [];
  const watcherEntries = due.filter((e): e is WatcherEntry => e.kind === 'watcher');
  let watchersDone = true;
  for (const watcherId of new Set(watcherEntries.map((e) => e.watcherId))) {
    if (!watchersInTime()) {
      watchersDone = false;
      break;
    }
    applied.push(await evaluateWatcher(watcherId, all, quiet, at, inTime));
    // finished only if no write was skipped for time: then its entries go at once
    if (!inTime()) {
      watchersDone = false;
      break;
    }
    await evaluationQueue.remove(watcherEntries.filter((e) => e.watcherId === watcherId));
  }
  // the device pass also sees what the watcher pass queued
  const deviceEntries = (watcherEntries.length ? await evaluationQueue.list() : due).filter(
    (e): e is DeviceEntry => e.kind === 'device' && (e.notBefore === undefined || e.notBefore <= now),
  );
  const recompute = uniquePlaces(deviceEntries.flatMap((e) => (e.claimed !== undefined && e.device ? [e.device.details] : [])));
  if ((deviceEntries.length > 0 || duePending.length > 0) && inTime()) {
    await evaluationQueue.claim(deviceEntries, randomUUID());
    applied.push(await evaluateDevices(deviceEntries, duePending, all, quiet, at, inTime));
  }
  return { applied, complete: watchersDone && inTime(), covered: inTime() ? deviceEntries : [], recompute };
};

/** Share of a queue pass's budget its watchers may use; the device pass gets the rest. */
const WATCHER_SHARE = 0.5;

/**
 * The queue pass: only the work that is due (devices a sync or refresh changed, watchers
 * that were written, pending alarms whose time came), found by reading the queue and the
 * pending-alarm index, never the fleet. Each room moves once, then the notifications go out.
 */
export const queuePass = async (options: PassOptions): Promise<EvaluationSummary> =>
  pass(options, async (inTime, summary) => {
    const at = new Date().toISOString();
    const [queued, due] = await Promise.all([evaluationQueue.list(), alarms.duePending(at)]);
    // watchers get at most WATCHER_SHARE of what is left: the device pass always gets the rest
    const watchersUntil = Date.now() + (options.deadline - Date.now()) * WATCHER_SHARE;
    const { applied, complete, covered, recompute } = await evaluateDueWork(queued, due, at, inTime, () => inTime() && Date.now() < watchersUntil);
    Object.assign(summary, tally(applied));
    if (inTime()) {
      // rooms a dead run may have moved already are recomputed whole; the others move by their devices' shifts
      const whole = new Set(recompute.map(roomKey));
      const recomputed = await recountRooms(recompute);
      const shifted = await shiftRooms(applied.flatMap((a) => a.shifts).filter((s) => !whole.has(roomKey(s.place))));
      summary.roomsRecomputed = recomputed.length + shifted.length;
    }
    // the device entries go only once their rooms are written: a run that dies before leaves them claimed
    if (covered.length > 0 && inTime()) await evaluationQueue.remove(covered);
    return complete;
  });
