import { alarms } from '#lib/db/alarms';
import { devices } from '#lib/db/devices';
import { evaluationQueue, type DeviceWork, type QueuedEvaluation } from '#lib/db/evaluationQueue';
import { watchers } from '#lib/db/watchers';
import { NotFound } from '#lib/errors';
import { mapConcurrent } from '#lib/devices/concurrent';
import type { StoredDevice } from '#lib/devices/types';
import type { WatcherRecord } from '#lib/watchers/rules';
import { applyPlan, type Applied } from './apply';
import { planAlarms } from './plan';

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
const evaluateWatcher = async (watcherId: string, all: readonly WatcherRecord[], at: string, inTime: () => boolean): Promise<Applied> => {
  const watcher = all.find((w) => w.id === watcherId);
  const open = await alarms.openOf(watcherId);
  const targets = watcher?.active ? await watcherDevices(watcher, open.map((a) => a.devicesn)) : [];
  const plan = planAlarms({ watchers: watcher ? [watcher] : [], devices: targets, open, now: at });
  const placeOf = new Map(targets.map((d) => [d.devicesn, d.details]));
  const touched = [...plan.raise.map((r) => r.alarm), ...plan.clear.map((c) => c.alarm), ...plan.update].map((a) => a.devicesn);
  const work: DeviceWork[] = [...new Set(touched)].map((devicesn) => {
    const place = placeOf.get(devicesn);
    return { devicesn, ...(place ? { place } : {}), hasAlarms: true };
  });
  await evaluationQueue.addDevices(work);
  return applyPlan({ ...plan, severities: [] }, at, inTime);
};

/**
 * Changed devices against every watcher: reads the devices (by key), their open alarms (by
 * key, only for devices that may have one), plans and applies. O(changed devices x watchers).
 */
const evaluateDevices = async (entries: readonly DeviceEntry[], all: readonly WatcherRecord[], at: string, inTime: () => boolean): Promise<Applied> => {
  const latest = new Map<string, DeviceEntry>();
  const mayHaveAlarms = new Set<string>();
  for (const entry of entries) {
    const seen = latest.get(entry.devicesn);
    if (!seen || String(entry.key.SK) > String(seen.key.SK)) latest.set(entry.devicesn, entry);
    if (entry.hasAlarms) mayHaveAlarms.add(entry.devicesn);
  }
  const located = [...latest.values()].flatMap((e) => (e.place ? [{ devicesn: e.devicesn, place: e.place }] : []));
  const present = new Map((await devices.at(located)).map((d) => [d.devicesn, d]));
  // not where the entry said: moved since (a newer entry is queued), or gone; the index tells
  const missing = [...latest.keys()].filter((sn) => !present.has(sn));
  for (const device of await mapConcurrent(missing, 16, bySerial)) if (device) present.set(device.devicesn, device);
  for (const device of present.values()) if (device.alarmSeverity !== undefined) mayHaveAlarms.add(device.devicesn);

  const pairs = [...mayHaveAlarms].flatMap((devicesn) => all.map((w) => ({ watcherId: w.id, devicesn })));
  const open = await alarms.openAmong(pairs);
  const plan = planAlarms({ watchers: all, devices: [...present.values()], open, now: at });
  return applyPlan(plan, at, inTime);
};

/**
 * Evaluates queued work that is due: watchers first (each alone), then every queued device
 * (each once, however often it was queued). Answers what changed; the entries it covered are
 * removed only if the whole pass finished in time.
 */
export const evaluateQueued = async (entries: readonly QueuedEvaluation[], at: string, inTime: () => boolean): Promise<{ applied: Applied[]; complete: boolean }> => {
  const now = Date.parse(at);
  const due = entries.filter((entry) => entry.notBefore === undefined || entry.notBefore <= now);
  if (due.length === 0) return { applied: [], complete: true };
  const all = await watchers.list();
  const applied: Applied[] = [];
  const watcherEntries = due.filter((e): e is WatcherEntry => e.kind === 'watcher');
  for (const watcherId of new Set(watcherEntries.map((e) => e.watcherId))) {
    if (!inTime()) return { applied, complete: false };
    applied.push(await evaluateWatcher(watcherId, all, at, inTime));
  }
  if (!inTime()) return { applied, complete: false };
  await evaluationQueue.remove(watcherEntries);
  // the device pass also sees what the watcher pass queued
  const deviceEntries = (watcherEntries.length ? await evaluationQueue.list() : due).filter(
    (e): e is DeviceEntry => e.kind === 'device' && (e.notBefore === undefined || e.notBefore <= now),
  );
  if (deviceEntries.length > 0 && inTime()) applied.push(await evaluateDevices(deviceEntries, all, at, inTime));
  const complete = inTime();
  if (complete) await evaluationQueue.remove(deviceEntries);
  return { applied, complete };
};
