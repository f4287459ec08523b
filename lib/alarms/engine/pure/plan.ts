import { silencedBy, type Silence } from '#lib/alarms/pure/silences';
import { alarmId, type ClearReason, type OpenAlarm, type Recipients } from '#lib/alarms/types';
import { matchingWindows, type OpenWindow } from '#lib/maintenance/pure/windows';
import { roomKey, type Place, type RoomAggregate, type RoomStatus, type Severity, type StoredDevice } from '#lib/devices/types';
import { roomStatusOf } from '#lib/rollups/pure/aggregates';
import { evaluate, parseConditions, targets } from '#lib/watchers/conditions';
import { flappingOfWatcher, type WatcherRecord } from '#lib/watchers/types';
import { flipsWithin, nextFlips } from '#lib/alarms/pure/flips';

/** An alarm the plan fires (new, or pending until now). */
export interface PlannedRaise {
  /** The firing alarm to store (`raisedAt` = now). */
  alarm: OpenAlarm;
  /** Set when a pending alarm fires: the `raisedAt` (= `pendingSince`) it is stored with. */
  fromPending?: string;
  /** Silences active now that match the alarm: its mail is suppressed. */
  silencedBy: string[];
  /** Maintenance windows open now that hold the alarm: its mail is suppressed too (docs/guide/rules/maintenance.md "A maintenance window suppresses an alarm's notifications as a silence does"). */
  inMaintenance: string[];
}

/** An open alarm the plan clears. */
export interface PlannedClear {
  alarm: OpenAlarm;
  reason: ClearReason;
  /** The pair's flips with this clear: kept on its item for the next alarm of the pair (flapping counts across them). */
  flips?: string[];
  /** The watcher's recipients now, or those stored on the alarm when the watcher is gone. */
  notify: Recipients;
  /** Silences active now that match the alarm: its mail is suppressed. */
  silencedBy: string[];
  /** Maintenance windows open now that hold the alarm: its mail is suppressed too (docs/guide/rules/maintenance.md "A maintenance window suppresses an alarm's notifications as a silence does"). */
  inMaintenance: string[];
}

/** A firing alarm whose device started flapping: held open (`flappingSince`, `quietSince` now), told once. */
export interface PlannedFlap {
  alarm: OpenAlarm;
  /** Silences active now that match the alarm: its notice is suppressed. */
  silencedBy: string[];
  /** Maintenance windows open now that hold the alarm: its notice is suppressed too. */
  inMaintenance: string[];
}

/** A device to evaluate again at `at` (epoch ms): a flapping alarm's quiet time ends then, with no change to queue it. */
export interface PlannedWake {
  device: StoredDevice;
  watcherId: string;
  at: number;
}

export interface AlarmPlan {
  raise: PlannedRaise[];
  /** Firing alarms that would clear but whose device flaps: held open, one notice each. */
  flap: PlannedFlap[];
  /** Devices to evaluate again when a flapping alarm's quiet time ends. */
  wake: PlannedWake[];
  /** New pending alarms: the condition holds, the watcher's `pendingSeconds` has not passed yet. */
  pend: OpenAlarm[];
  /** Pending alarms whose condition stopped before they fired: removed, no mail, no history. */
  drop: OpenAlarm[];
  clear: PlannedClear[];
  /** Open alarms that still hold but whose severity, room, description or firing time changed (no mail). */
  update: OpenAlarm[];
  /** Every device whose stored `alarmSeverity` is not its worst firing alarm after the plan. */
  severities: { device: StoredDevice; severity: Severity | undefined }[];
  /** The worst firing severity of each device once the plan is applied (absent: none firing). */
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

const sameAlarm = (a: OpenAlarm, b: OpenAlarm) =>
  a.severity === b.severity &&
  a.deviceid === b.deviceid &&
  roomKey(a) === roomKey(b) &&
  (a.description ?? '') === (b.description ?? '') &&
  a.firesAt === b.firesAt &&
  a.quietSince === b.quietSince;

const plusSeconds = (at: string, seconds: number) => new Date(Date.parse(at) + seconds * 1000).toISOString();

const MINUTE_MS = 60_000;

/**
 * The alarm transitions of one evaluation (DESIGN D6): every active watcher against the devices
 * it targets. Where the condition holds and no alarm is open for the (watcher, device) pair, an
 * alarm fires at once (`pendingSeconds` 0) or goes pending; a pending alarm fires once its
 * condition has held `pendingSeconds` (the watcher's current value), and is dropped without
 * mail if the condition stops first. A firing alarm clears where the condition stopped holding,
 * its watcher is inactive or gone, or its device vanished. Only firing alarms count for device
 * and room status. Pure, and idempotent: planning again over the state this plan produces (at
 * the same `now`) yields an empty plan.
 */
export const planAlarms = (input: {
  watchers: readonly WatcherRecord[];
  devices: readonly StoredDevice[];
  open: readonly OpenAlarm[];
  now: string;
  /** Silences (any status: only those active at `now` count). */
  silences?: readonly Silence[];
  /** The maintenance windows open at `now`. */
  maintenance?: readonly OpenWindow[];
}): AlarmPlan => {
  const { watchers, devices, open, now } = input;
  const silences = input.silences ?? [];
  const maintenance = input.maintenance ?? [];
  const vendorOf = new Map(devices.map((d) => [d.devicesn, d.vendor]));
  const heldBy = (alarm: OpenAlarm) => (maintenance.length === 0 ? [] : matchingWindows(maintenance, { ...alarm, vendor: vendorOf.get(alarm.devicesn) }));
  const byId = new Map(watchers.map((w) => [w.id, w]));
  const invalidWatchers = watchers.filter((w) => !parses(w)).map((w) => w.id);
  const usable = watchers.filter((w) => w.active && !invalidWatchers.includes(w.id));

  const wanted = new Map<string, { alarm: OpenAlarm; pendingSeconds: number }>();
  for (const watcher of usable) {
    for (const device of devices) {
      if (!targets(watcher, device)) continue;
      if (!evaluate(watcher, { ...device, deviceconnected: device.status.connected })) continue;
      const alarm: OpenAlarm = {
        state: 'firing',
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
      wanted.set(alarmId(alarm), { alarm, pendingSeconds: watcher.pendingSeconds });
    }
  }

  const inventory = new Set(devices.map((d) => d.devicesn));
  const openById = new Map(open.map((a) => [alarmId(a), a]));
  const plan: AlarmPlan = { raise: [], flap: [], wake: [], pend: [], drop: [], clear: [], update: [], severities: [], worst: new Map(), invalidWatchers };
  const deviceOf = new Map(devices.map((d) => [d.devicesn, d]));
  const firing: OpenAlarm[] = [];
  const fire = (alarm: OpenAlarm, fromPending?: string) => {
    plan.raise.push({ alarm, ...(fromPending ? { fromPending } : {}), silencedBy: silencedBy(alarm, silences, now), inMaintenance: heldBy(alarm) });
    firing.push(alarm);
  };

  for (const alarm of open) {
    const want = wanted.get(alarmId(alarm));
    if (want && alarm.state === 'pending') {
      const pendingSince = alarm.pendingSince ?? alarm.raisedAt;
      const firesAt = plusSeconds(pendingSince, want.pendingSeconds);
      if (firesAt <= now) {
        fire({ ...want.alarm, pendingSince, ...keptAcknowledgement(alarm), flips: nextFlips(alarm.flips, now) }, alarm.raisedAt);
        continue;
      }
      const kept: OpenAlarm = { ...want.alarm, ...keptAcknowledgement(alarm), state: 'pending', raisedAt: alarm.raisedAt, pendingSince, firesAt, notify: alarm.notify };
      if (!sameAlarm(alarm, kept)) plan.update.push(kept);
      continue;
    }
    if (want) {
      // a flapping alarm whose condition holds again is failing: its quiet time starts over when it stops
      const { firesAt: _firesAt, ...stored } = alarm;
      const { quietSince: _quiet, ...failing } = stored;
      const kept: OpenAlarm = { ...failing, ...want.alarm, state: 'firing', raisedAt: alarm.raisedAt, notify: alarm.notify };
      if (alarm.pendingSince) kept.pendingSince = alarm.pendingSince;
      if (!sameAlarm(stored, kept)) plan.update.push(kept);
      firing.push(kept);
      continue;
    }
    if (alarm.state === 'pending') {
      plan.drop.push(alarm);
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
    const flapping = reason === 'resolved' && watcher ? flappingOfWatcher(watcher) : undefined;
    const device = deviceOf.get(alarm.devicesn);
    if (flapping && device && alarm.flappingSince) {
      // flapping: it clears only once quietMinutes passed without a failure
      const quietSince = alarm.quietSince ?? now;
      const quietEnds = Date.parse(quietSince) + flapping.quietMinutes * MINUTE_MS;
      if (quietEnds > Date.parse(now)) {
        if (!alarm.quietSince) {
          plan.update.push({ ...alarm, quietSince });
          plan.wake.push({ device, watcherId: alarm.watcherId, at: quietEnds });
        }
        firing.push(alarm);
        continue;
      }
    } else if (flapping && device) {
      const flips = nextFlips(alarm.flips, now);
      if (flipsWithin(flips, now, flapping.windowMinutes) >= flapping.transitions) {
        plan.flap.push({ alarm: { ...alarm, flips, flappingSince: now, quietSince: now }, silencedBy: silencedBy(alarm, silences, now), inMaintenance: heldBy(alarm) });
        plan.wake.push({ device, watcherId: alarm.watcherId, at: Date.parse(now) + flapping.quietMinutes * MINUTE_MS });
        firing.push(alarm);
        continue;
      }
    }
    plan.clear.push({ alarm, flips: nextFlips(alarm.flips, now), reason, notify: watcher ? recipients(watcher) : alarm.notify, silencedBy: silencedBy(alarm, silences, now), inMaintenance: heldBy(alarm) });
  }
  for (const [id, { alarm, pendingSeconds }] of wanted) {
    if (openById.has(id)) continue;
    if (pendingSeconds > 0) plan.pend.push({ ...alarm, state: 'pending', pendingSince: now, firesAt: plusSeconds(now, pendingSeconds) });
    else fire(alarm);
  }

  plan.worst = worstSeverityByDevice(firing);
  plan.severities = devices
    .filter((device) => device.alarmSeverity !== plan.worst.get(device.devicesn))
    .map((device) => ({ device, severity: plan.worst.get(device.devicesn) }));
  return plan;
};

const keptAcknowledgement = (alarm: OpenAlarm): Pick<OpenAlarm, 'acknowledgement'> =>
  alarm.acknowledgement ? { acknowledgement: alarm.acknowledgement } : {};

/**
 * The one rule for a device's severity (DESIGN D6): the worst (lowest-numbered) severity of its
 * firing alarms; pending ones do not count. Devices with none firing are absent. Every place
 * that derives device severities (the planner, the restart repair, the reconciliation) uses it.
 */
export const worstSeverityByDevice = (open: readonly Pick<OpenAlarm, 'devicesn' | 'severity' | 'state'>[]): Map<string, Severity> => {
  const worst = new Map<string, Severity>();
  for (const alarm of open) {
    if (alarm.state !== 'firing') continue;
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
    const key = roomKey(device.details);
    const list = members.get(key) ?? [];
    list.push(worst.get(device.devicesn));
    members.set(key, list);
  }
  const expected = (room: Place): RoomStatus => roomStatusOf(members.get(roomKey(room)) ?? []);
  return stored.filter((room) => room.roomStatus !== expected(room)).map(({ region, location, room }) => ({ region, location, room }));
};
