import { alarmId, type Alarm, type ClearReason, type NotificationOutcome, type OpenAlarm } from '#lib/alarms/types';
import type { Notice } from '#lib/notify/types';
import { mapConcurrent } from '#lib/shared/concurrency';
import { AlarmEntity, alarmIndexKeys } from '#lib/alarms/entities';
import { and, expr, type Change, type Expr } from '#lib/store/expression';
import { batchWriteWhile, putRequest, type Item } from '#lib/store/table';
import { ackFields, BATCHES_IN_FLIGHT, itemsOf, viewOf } from './alarmViews';
import { announceStored } from './changes';
import { nextFlips } from '#lib/alarms/pure/flips';

// The alarm state machine: one item per pair, each transition one conditional write with its notice (ADRs 0047, 0067, 0321).
// No transactions here: the engine writes per pair on its hot path, where one would double the write units and conflict under a storm (docs/adr/0550).
export * from './alarmViews';
export * from './alarmNotices';
export * from './alarmHandoff';

const ACK_FIELDS = ['acknowledgedAt', 'acknowledgedBy', 'ackComment', 'ackUntil', 'ackEvents'];

/** The change with the transition's notice appended, and the item in the notices' index. */
const withNotice = (alarm: Alarm, notice: Notice | undefined, change: Change): Change =>
  notice ? { ...change, set: { ...change.set, ...alarmIndexKeys.notices(alarm) }, append: { pendingNotices: [notice] } } : change;

/** What every stored state of the pair's alarm holds: its identity and the fields `update` carries. */
const storedFields = (alarm: OpenAlarm, state: 'firing' | 'pending') => ({ type: 'Alarm', state, watcherId: alarm.watcherId, devicesn: alarm.devicesn, ...alarmFields(alarm), raisedAt: alarm.raisedAt });

const alarmFields = (alarm: Alarm) => ({
  deviceid: alarm.deviceid,
  severity: alarm.severity,
  region: alarm.region,
  location: alarm.location,
  room: alarm.room,
  description: alarm.description,
});

/** Everything a firing alarm's item holds (its notice aside); `FIRING_REMOVES` are what an older alarm of the pair may have left. */
const firingFields = (alarm: OpenAlarm, outcome: NotificationOutcome | undefined, fromPending = false): Item => ({
  ...storedFields(alarm, 'firing'),
  pendingSince: alarm.pendingSince,
  notify: alarm.notify,
  notified: { raised: outcome ?? [] },
  suppressedBy: alarm.suppressedBy,
  flips: alarm.flips,
  // a new alarm starts unacknowledged; one that was pending keeps what its item holds (docs/guide/rules/alarms.md "An acknowledgement ends with its alarm, or at an optional ackUntil of at most 30 days")
  ...(fromPending ? {} : { ...ackFields(alarm.acknowledgement), ackEvents: alarm.ackEvents }),
  ...alarmIndexKeys.firing(alarm),
});
/** What an older alarm of the pair may have left: a new alarm starts unescalated and not flapping (its `flips` carry on). */
const EPISODE_FIELDS = ['escalationStep', 'escalations', 'escalationFrom', 'escalationHeld', 'flappingSince', 'quietSince'];
const FIRING_REMOVES = ['clearedAt', 'clearReason', 'expiresAt', 'firesAt', ...EPISODE_FIELDS];
const announceRaised = (alarm: OpenAlarm) => announceStored({ kind: 'alarm', event: 'raised', at: new Date().toISOString(), alarm: { ...viewOf(alarm), state: 'firing' } });

/** Still the alarm in `state` raised (pending: stored) at `raisedAt`. */
export const still = (state: 'firing' | 'pending', raisedAt: string): Expr => expr(`#state = :${state} AND #raisedAt = :raisedAt`, { [state]: state, raisedAt });
/** A new alarm may take the pair's item when there is none, or its last alarm is over and its history written. */
const FREE = expr('attribute_not_exists(PK) OR ((#state = :cleared OR #state = :dropped) AND attribute_not_exists(#GSI1PK))', { cleared: 'cleared', dropped: 'dropped' });

/** One conditional write of the pair's item: false when the condition did not hold (someone got there first). */
const transition = async (alarm: Alarm, change: Change, condition: Expr): Promise<boolean> => !!(await AlarmEntity.update(alarm, change, condition));

/** An alarm to fire: its notice (written on it), where that went, and the pending alarm it fires (its `raisedAt`), if any. */
interface Raise {
  alarm: OpenAlarm;
  notice?: Notice | undefined;
  delivery?: NotificationOutcome | undefined;
  fromPending?: string | undefined;
}

/** Fires the pair's alarm (a new one, or the pending one raised at `fromPending`), its notice and outcome in the same write. */
export const raise = async (alarm: OpenAlarm, notice?: Notice, delivery?: NotificationOutcome, fromPending?: string): Promise<boolean> => {
  const change = withNotice(alarm, notice, { set: firingFields(alarm, delivery, fromPending !== undefined), remove: FIRING_REMOVES });
  const raised = await transition(alarm, change, fromPending ? still('pending', fromPending) : FREE);
  if (raised) await announceRaised(alarm);
  return raised;
};

/** Fires a storm: free pairs put whole in batches, the rest through `raise` (docs/guide/rules/alarms.md "A storm's new alarms are put whole in batches where that cannot lose anything"); answers, in order, which were raised. */
export const raiseAll = async (given: readonly Raise[], inTime: () => boolean): Promise<boolean[]> => {
  const fresh = given.flatMap((raise, i) => (raise.fromPending === undefined ? [i] : []));
  const stored = await itemsOf(fresh.map((i) => given[i]!.alarm), ['PK', 'SK', 'state', 'GSI1PK', 'GSI2PK', 'flips']);
  // a new alarm carries on the flips of the pair's earlier alarms (flapping counts across them)
  const list = given.map((raise) => {
    if (raise.fromPending !== undefined) return raise;
    const before = stored.get(alarmId(raise.alarm))?.flips;
    return { ...raise, alarm: { ...raise.alarm, flips: nextFlips(Array.isArray(before) ? before.map(String) : undefined, raise.alarm.raisedAt) } };
  });
  const batched = fresh.filter((i) => {
    const item = stored.get(alarmId(list[i]!.alarm));
    return !item || ((item.state === 'cleared' || item.state === 'dropped') && item.GSI1PK === undefined && item.GSI2PK === undefined);
  });
  const free = new Set(batched);
  const puts = batched.map((i) => {
    const { alarm, notice, delivery } = list[i]!;
    const item = { ...AlarmEntity.key(alarm), ...firingFields(alarm, delivery), ...(notice ? { ...alarmIndexKeys.notices(alarm), pendingNotices: [notice] } : {}) };
    return putRequest(Object.fromEntries(Object.entries(item).filter(([, value]) => value !== undefined)));
  });
  const sent = await batchWriteWhile(puts, { inFlight: BATCHES_IN_FLIGHT, proceed: inTime });
  const raised = list.map(() => false);
  batched.forEach((i, n) => (raised[i] = sent[n]!));
  await mapConcurrent(
    list.flatMap((_, i) => (free.has(i) ? [] : [i])),
    BATCHES_IN_FLIGHT,
    async (i) => {
      const { alarm, notice, delivery, fromPending } = list[i]!;
      raised[i] = inTime() && (await raise(alarm, notice, delivery, fromPending));
    },
  );
  for (const [i, done] of raised.entries()) if (done && free.has(i)) await announceRaised(list[i]!.alarm);
  return raised;
};

/** Stores a new pending alarm for the pair unless one is open already (no mail). */
export const pend = async (alarm: OpenAlarm): Promise<boolean> => {
  const fields = {
    ...storedFields(alarm, 'pending'),
    pendingSince: alarm.pendingSince ?? alarm.raisedAt,
    firesAt: alarm.firesAt,
    notify: alarm.notify,
    ...alarmIndexKeys.pending(alarm),
  };
  return transition(alarm, { set: fields, remove: ['clearedAt', 'clearReason', 'expiresAt', 'notified', ...ACK_FIELDS, ...EPISODE_FIELDS] }, FREE);
};

/** A pending alarm whose condition stopped before it fired: leaves every index, no mail, no history. */
export const drop = async (alarm: OpenAlarm, at: string, expiresAt: number): Promise<boolean> =>
  transition(alarm, { set: { state: 'dropped', clearedAt: at, expiresAt }, remove: ['GSI1PK', 'GSI1SK'] }, still('pending', alarm.raisedAt));

/** Clears the firing alarm raised at `alarm.raisedAt` (false when not firing); it then waits for its history record. */
export const clear = async (alarm: OpenAlarm, clearedAt: string, reason: ClearReason, expiresAt: number, notice?: Notice, delivery?: NotificationOutcome, flips = alarm.flips): Promise<boolean> => {
  const fields = {
    state: 'cleared',
    clearedAt,
    clearReason: reason,
    expiresAt,
    notified: { ...(alarm.notified ?? {}), cleared: delivery ?? [] },
    flips,
    ...alarmIndexKeys.history(alarm, clearedAt),
  };
  const cleared = await transition(alarm, withNotice(alarm, notice, { set: fields }), still('firing', alarm.raisedAt));
  if (cleared) await announceStored({ kind: 'alarm', event: 'cleared', at: clearedAt, alarm: { ...viewOf(alarm), clearedAt, clearReason: reason } });
  return cleared;
};

/** Carries a changed severity, room, description or firing time into an alarm that stays open (no mail). */
export const update = async (alarm: OpenAlarm): Promise<boolean> =>
  alarm.state === 'pending'
    ? transition(alarm, { set: { ...alarmFields(alarm), firesAt: alarm.firesAt, GSI1SK: alarmIndexKeys.pending(alarm).GSI1SK } }, still('pending', alarm.raisedAt))
    : transition(alarm, { set: { ...alarmFields(alarm), quietSince: alarm.quietSince } }, still('firing', alarm.raisedAt));

/**
 * Ends the suppression of a firing alarm raised under the parent episode that began at `since`
 * (its release told it: docs/guide/rules/alarms.md "A parent episode is announced once and released once, from a marker per episode"); false when it is no longer that alarm so marked.
 */
export const unsuppress = async (alarm: OpenAlarm, since: string): Promise<boolean> =>
  transition(alarm, { remove: ['suppressedBy'] }, and(still('firing', alarm.raisedAt), expr('#suppressedBy.#since = :since', { since }))!);

/**
 * Holds the firing alarm raised at `alarm.raisedAt` open as flapping (docs/guide/rules/alarms.md "A flapping device keeps one
 * alarm open"): `flappingSince` and `quietSince` now, its flips, its flapping notice in the same write. Only the first of racing
 * runs holds it (false for the others: the alarm flaps already, or is no longer that alarm).
 */
export const startFlapping = async (alarm: OpenAlarm, at: string, notice?: Notice, delivery?: NotificationOutcome): Promise<boolean> =>
  transition(
    alarm,
    withNotice(alarm, notice, { set: { flappingSince: at, quietSince: at, flips: alarm.flips, notified: { ...(alarm.notified ?? {}), flapping: delivery ?? [] } } }),
    and(still('firing', alarm.raisedAt), 'attribute_not_exists(#flappingSince)')!,
  );

/** Records escalation step `step` reached (docs/guide/rules/alarms.md "Escalation reaches each step once"): false when a racing run recorded it (or a later one) first, or the alarm is no longer that alarm. */
export const escalated = async (alarm: OpenAlarm, step: number, at: string): Promise<boolean> =>
  transition(
    alarm,
    { set: { escalationStep: step }, append: { escalations: [{ step, at }] } },
    and(still('firing', alarm.raisedAt), expr('(attribute_not_exists(#escalationStep) OR #escalationStep < :step)', { step }))!,
  );

/** Marks the alarm's escalation held by a silence, a maintenance window or its parent condition (once). */
export const holdEscalation = async (alarm: OpenAlarm): Promise<boolean> =>
  transition(alarm, { set: { escalationHeld: true } }, and(still('firing', alarm.raisedAt), 'attribute_not_exists(#escalationHeld)')!);

/** The hold of the alarm's escalation ended: its clock counts from `at` (only the first of racing runs sets it). */
export const releaseEscalation = async (alarm: OpenAlarm, at: string): Promise<boolean> =>
  transition(alarm, { set: { escalationFrom: at }, remove: ['escalationHeld'] }, and(still('firing', alarm.raisedAt), 'attribute_exists(#escalationHeld)')!);
