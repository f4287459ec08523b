import { placeKey } from '#lib/devices/plan';
import { roomStatusOf } from '#lib/devices/rollup';
import type { Place, RoomAggregate, RoomStatus, Severity, StoredDevice } from '#lib/devices/types';
import { evaluate, parseConditions, targets } from '#lib/watchers/conditions';
import type { WatcherRecord } from '#lib/watchers/rules';
import { alarmId, type Alarm, type ClearReason, type OpenAlarm, type Recipients } from './types';

export interface Raise {
  alarm: OpenAlarm;
}

export interface Clear {
  alarm: OpenAlarm;
  reason: ClearReason;
  /** The watcher's recipients now, or those stored on the alarm when the watcher is gone. */
  notify: Recipients;
}

export interface AlarmPlan {
  raise: Raise[];
  clear: Clear[];
  /** Open alarms that still hold but whose severity, room or description changed (no mail). */
  update: OpenAlarm[];
  /** Every device whose stored `alarmSeverity` is not its worst open alarm after the plan. */
  severities: { device: StoredDevice; severity: Severity | undefined }[];
  /** The worst open severity of each device once the plan is applied (absent: no open alarm). */
  worst: Map<string, Severity>;
  /** Watchers whose stored conditions do not parse: they match nothing (their alarms clear). */
  invalidWatchers: string[];
}

const recipients = (watcher: WatcherRecord): Recipients => ({
  sendEmail: watcher.sendEmail,
  emails: [...watcher.emails],
  ...(watcher.channelIds?.length ? { channelIds: [...watcher.channelIds] } : {}),
});

const parses = (watcher: WatcherRecord): boolean => {
  try {
    parseConditions(watcher.operations);
    return true;
  } catch {
    return false;
  }
};

const sameAlarm = (a: Alarm, b: Alarm) =>
  a.severity === b.severity &&
  a.deviceid === b.deviceid &&
  placeKey(a) === placeKey(b) &&
  (a.description ?? '') === (b.description ?? '');

/**
 * The alarm transitions of one evaluation (DESIGN D6): every active watcher against the devices
 * it targets. An alarm opens where the condition holds and none is open for the (watcher,
 * device) pair; an open alarm clears where the condition stopped holding, its watcher is
 * inactive or gone, or its device vanished. Pure, and idempotent: planning again over the
 * state this plan produces yields an empty plan.
 */
export const planAlarms = (input: {
  watchers: readonly WatcherRecord[];
  devices: readonly StoredDevice[];
  open: readonly OpenAlarm[];
  now: string;
}): AlarmPlan => {
  const { watchers, devices, open, now } = input;
  const byId = new Map(watchers.map((w) => [w.id, w]));
  const invalidWatchers = watchers.filter((w) => !parses(w)).map((w) => w.id);
  const usable = watchers.filter((w) => w.active && !invalidWatchers.includes(w.id));

  const wanted = new Map<string, Alarm & { notify: Recipients }>();
  for (const watcher of usable) {
    for (const device of devices) {
      if (!targets(watcher, device)) continue;
      if (!evaluate(watcher, { ...device, deviceconnected: device.status.connected })) continue;
      const alarm: OpenAlarm = {
        watcherId: watcher.id,
        devicesn: device.devicesn,
        deviceid: device.deviceid,
        severity: watcher.severity,
        region: device.details.region,
        location: device.details.location,
        room: device.details.room,
        raisedAt: now,
        notify: recipients(watcher),
      };
      if (watcher.description) alarm.description = watcher.description;
      wanted.set(alarmId(alarm), alarm);
    }
  }

  const inventory = new Set(devices.map((d) => d.devicesn));
  const openById = new Map(open.map((a) => [alarmId(a), a]));
  const raise: Raise[] = [];
  const clear: Clear[] = [];
  const update: OpenAlarm[] = [];
  const stillOpen: Alarm[] = [];

  for (const alarm of open) {
    const want = wanted.get(alarmId(alarm));
    if (want) {
      const kept: OpenAlarm = { ...want, raisedAt: alarm.raisedAt, notify: alarm.notify };
      if (!sameAlarm(alarm, kept)) update.push(kept);
      stillOpen.push(kept);
      continue;
    }
    const watcher = byId.get(alarm.watcherId);
    const reason: ClearReason = !watcher
      ? 'watcher deleted'
      : !watcher.active
        ? 'watcher inactive'
        : !inventory.has(alarm.devicesn)
          ? 'device vanished'
          : 'resolved';
    clear.push({ alarm, reason, notify: watcher ? recipients(watcher) : alarm.notify });
  }
  for (const [id, alarm] of wanted) {
    if (openById.has(id)) continue;
    raise.push({ alarm });
    stillOpen.push(alarm);
  }

  const worst = worstSeverityByDevice(stillOpen);
  const severities = devices
    .filter((device) => device.alarmSeverity !== worst.get(device.devicesn))
    .map((device) => ({ device, severity: worst.get(device.devicesn) }));
  return { raise, clear, update, severities, worst, invalidWatchers };
};

/** The worst (lowest-numbered) severity of each device's open alarms; devices without none absent. */
export const worstSeverityByDevice = (open: readonly Pick<Alarm, 'devicesn' | 'severity'>[]): Map<string, Severity> => {
  const worst = new Map<string, Severity>();
  for (const alarm of open) {
    const current = worst.get(alarm.devicesn);
    if (current === undefined || alarm.severity < current) worst.set(alarm.devicesn, alarm.severity);
  }
  return worst;
};

/**
 * Rooms whose stored status is not the worst severity of their devices' alarms: what the
 * evaluator recomputes besides the rooms it touched, so a lost write heals on the next run.
 */
export const roomsToRecompute = (
  stored: readonly RoomAggregate[],
  devices: readonly Pick<StoredDevice, 'devicesn' | 'details'>[],
  worst: ReadonlyMap<string, Severity>,
): Place[] => {
  const members = new Map<string, (Severity | undefined)[]>();
  for (const device of devices) {
    const key = placeKey(device.details);
    const list = members.get(key) ?? [];
    list.push(worst.get(device.devicesn));
    members.set(key, list);
  }
  const expected = (room: Place): RoomStatus => roomStatusOf(members.get(placeKey(room)) ?? []);
  return stored.filter((room) => room.roomStatus !== expected(room)).map(({ region, location, room }) => ({ region, location, room }));
};
