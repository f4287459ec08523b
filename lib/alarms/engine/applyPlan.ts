import { alarmId, type OpenAlarm } from '#lib/alarms/types';
import * as alarms from '#lib/alarms/repository/alarms';
import type { ClearedAlarm } from '#lib/alarms/repository/alarms';
import { devices } from '#lib/devices/repository/devices';
import { evaluationQueue } from '#lib/alarms/repository/evaluationQueue';
import type { Place, Severity, StoredDevice } from '#lib/devices/types';
import { transitionNotice } from '#lib/notify/pure/notice';
import { mapConcurrent, writesInFlight } from '#lib/shared/concurrency';
import { historyExpiry } from '#lib/shared/retention';
import type { WatcherRecord } from '#lib/watchers/types';
import type { AlarmPlan, PlannedClear } from './pure/plan';

/** A device whose worst firing alarm changed, as written (`from` is what the write replaced). */
interface SeverityShift {
  place: Place;
  from: Severity | undefined;
  to: Severity | undefined;
}

/** What a plan's execution changed: the seam for whoever reacts to alarm transitions. */
export interface Applied {
  raised: OpenAlarm[];
  /** New pending alarms, and pending ones dropped before they fired. */
  pending: OpenAlarm[];
  dropped: OpenAlarm[];
  cleared: PlannedClear[];
  updated: OpenAlarm[];
  /** Firing alarms held open because their device flaps (their notice written). */
  flapped: OpenAlarm[];
  /** Devices whose severity moved: their rooms' statuses follow from these. */
  shifts: SeverityShift[];
  /** Rooms of every device the run wrote. */
  rooms: Place[];
  /** Transitions written with a notice for the notification engine to collect. */
  notices: number;
  /** The alarms those notices were written on: the notifier reads them by key, not through the lagging index. */
  noticed: Pick<OpenAlarm, 'watcherId' | 'devicesn'>[];
  /** The alarms cleared, as their items now hold them: their history records follow in the same pass. */
  clearedAlarms: ClearedAlarm[];
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The watchers with an open alarm on each device once the plan is applied, sorted. */
const openWatchers = (open: readonly OpenAlarm[], plan: Pick<AlarmPlan, 'raise' | 'pend' | 'drop' | 'clear'>): Map<string, string[]> => {
  const gone = new Set([...plan.clear.map(({ alarm }) => alarmId(alarm)), ...plan.drop.map(alarmId)]);
  const byDevice = new Map<string, string[]>();
  for (const alarm of [...open.filter((a) => !gone.has(alarmId(a))), ...plan.raise.map((r) => r.alarm), ...plan.pend]) {
    const list = byDevice.get(alarm.devicesn) ?? [];
    if (!list.includes(alarm.watcherId)) list.push(alarm.watcherId);
    byDevice.set(alarm.devicesn, list);
  }
  for (const list of byDevice.values()) list.sort();
  return byDevice;
};

/**
 * Carries out an alarm plan over `devices` (the devices it was planned for, as stored) given
 * the `open` alarms it was planned from: alarm writes first (each transition's mail in the same
 * item write), then each device's worst severity and open-alarm watchers where they differ:
 * conditional updates, or, when the devices are exactly as a sync or refresh just wrote them
 * (`asWritten`) and batches cost fewer requests, whole items in batches. Alarm writes are
 * conditional, `writesInFlight()` in flight, none after `inTime()`.
 */
export const applyPlan = async (
  plan: Pick<AlarmPlan, 'raise' | 'pend' | 'drop' | 'clear' | 'update' | 'worst'> & Partial<Pick<AlarmPlan, 'flap' | 'wake'>>,
  planned: { devices: readonly StoredDevice[]; open: readonly OpenAlarm[]; watchers?: readonly Pick<WatcherRecord, 'id' | 'type'>[]; asWritten?: boolean },
  at: string,
  inTime: () => boolean,
): Promise<Applied> => {
  const limit = writesInFlight();
  const step = async <T>(items: readonly T[], write: (item: T) => Promise<boolean>): Promise<T[]> => {
    const done = await mapConcurrent(items, limit, async (item) => inTime() && (await write(item)));
    return items.filter((_, i) => done[i]);
  };
  const typeOf = new Map((planned.watchers ?? []).map((w) => [w.id, w.type]));
  // raises in batches (a storm is thousands of them): lib/alarms/repository/alarms decides which need a condition
  const raises = plan.raise.map(({ alarm, fromPending, silencedBy, inMaintenance }) => {
    const { notice, delivery } = transitionNotice('raised', alarm, alarm.notify, at, [...silencedBy, ...inMaintenance], undefined, typeOf.get(alarm.watcherId));
    return { alarm, notice, delivery, fromPending };
  });
  const raisedFlags = await alarms.raiseAll(raises, inTime);
  const raised = plan.raise.filter((_, i) => raisedFlags[i]).map(({ alarm }) => alarm);
  const pending = await step(plan.pend, (alarm) => alarms.pend(alarm));
  const dropped = await step(plan.drop, (alarm) => alarms.drop(alarm, at, historyExpiry(at)));
  const clearedAlarms: ClearedAlarm[] = [];
  const noticed = raises.filter(({ notice }, i) => raisedFlags[i] && notice).map(({ alarm }) => alarm);
  const cleared = await step(plan.clear, async ({ alarm, reason, notify, silencedBy, inMaintenance, flips }) => {
    const { notice, delivery } = transitionNotice('cleared', alarm, notify, at, [...silencedBy, ...inMaintenance], reason, typeOf.get(alarm.watcherId));
    const done = await alarms.clear(alarm, at, reason, historyExpiry(at), notice, delivery, flips);
    if (done && notice) noticed.push(alarm);
    if (done) clearedAlarms.push({ ...alarm, state: 'firing', clearedAt: at, clearReason: reason, notified: { ...(alarm.notified ?? {}), cleared: delivery ?? [] } });
    return done;
  });
  // a flapping device: its alarm held open, told once (only the first of racing runs writes the notice)
  const flapped = await step(plan.flap ?? [], async ({ alarm, silencedBy, inMaintenance }) => {
    const { notice, delivery } = transitionNotice('flapping', alarm, alarm.notify, at, [...silencedBy, ...inMaintenance], undefined, typeOf.get(alarm.watcherId));
    const done = await alarms.startFlapping(alarm, at, notice, delivery);
    if (done && notice) noticed.push(alarm);
    return done;
  });
  const notices = noticed.length;
  const updated = await step(plan.update, (alarm) => alarms.update(alarm));
  // the quiet time of a flapping alarm ends with no change to queue its device: queued now, due then (read again by key)
  if ((plan.wake ?? []).length > 0 && inTime()) {
    await evaluationQueue.addDevices(plan.wake!.map(({ device, watcherId, at: due }) => ({ devicesn: device.devicesn, device, reread: true, alarmWatchers: [watcherId], notBefore: due })));
  }

  const watchersOf = openWatchers(planned.open, plan);
  const changes = planned.devices.flatMap((device) => {
    const severity = plan.worst.get(device.devicesn);
    const ids = watchersOf.get(device.devicesn) ?? [];
    return device.alarmSeverity === severity && sameList(device.alarmWatchers ?? [], ids) ? [] : [{ device, severity, ids }];
  });
  const shifts: SeverityShift[] = [];
  if (planned.asWritten && devices.writeAllRequests(changes.map(({ device }) => device)) < changes.length) {
    // the devices as the queue carries them are what the store holds: whole items, 25 a request,
    // when that and the fingerprint marks it owes cost fewer requests than one update each (a storm)
    if (!inTime()) return { raised, pending, dropped, cleared, updated, flapped: flapped.map((f) => f.alarm), shifts, rooms: [], notices, noticed, clearedAlarms };
    const next = changes.map(({ device, severity, ids }) => {
      const { alarmSeverity: _severity, alarmWatchers: _watchers, ...rest } = device;
      return { ...rest, ...(severity === undefined ? {} : { alarmSeverity: severity }), ...(ids.length ? { alarmWatchers: ids } : {}) };
    });
    // one call: each room's dirty mark is written once before and once after, not once per 25 devices
    await devices.writeAll(next, []);
    for (const { device, severity } of changes) if (device.alarmSeverity !== severity) shifts.push({ place: device.details, from: device.alarmSeverity, to: severity });
    return { raised, pending, dropped, cleared, updated, flapped: flapped.map((f) => f.alarm), shifts, rooms: changes.map(({ device }) => device.details), notices, noticed, clearedAlarms };
  }
  const written = await step(changes, async ({ device, severity, ids }) => {
    const result = await devices.setAlarmSeverity(device, severity, ids);
    if (result && result.before !== severity) shifts.push({ place: device.details, from: result.before, to: severity });
    return result !== false;
  });
  return { raised, pending, dropped, cleared, updated, flapped: flapped.map((f) => f.alarm), shifts, rooms: written.map(({ device }) => device.details), notices, noticed, clearedAlarms };
};
