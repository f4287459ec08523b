import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Severity } from '#lib/devices/types';
import {
  alarmId,
  type Acknowledgement,
  type Alarm,
  type AlarmState,
  type ClearReason,
  type Delivery,
  type Notified,
  type OpenAlarm,
  type Recipients,
} from '#lib/alarms/types';
import { Conflict, NotFound } from '#lib/errors';
import type { Notice } from '#lib/notify/types';
import { announceStored } from './changes';
import { doc, tableName } from '#lib/store/client';
import { batchGet, batchWriteWhile, hasExpired, isConditionFailed, queryAll, type Item, updateExpression } from './helpers';
import { mapConcurrent } from '#lib/shared/concurrency';
import type { PlaceFilter } from '#lib/shared/access';
import type { Page } from './pages';
import { queryShards, queryShardsDescending, shardKey } from './shards';
import { withinCondition } from '#lib/store/within';

/*
 * One item per (watcher, device) pair, pending, firing or cleared: a raise is a conditional
 * write on that one item, so two evaluations can never open the pair twice. GSI1 holds firing
 * alarms under `ALARMS#OPEN` (sorted by raisedAt: the evaluator's input and GET /alarms, newest
 * first), pending ones under `ALARMS#PENDING` (sorted by firesAt: the timers that are due), and
 * cleared ones whose history record is not written yet under `ALARMS#HISTORY` (the evaluator
 * writes it, then removes the item from the index: a run cut short is finished by the next).
 * The notice of a transition (what notifications will tell, lib/notify) is written on the alarm
 * item in the same single-item write (`pendingNotices`, outbox pattern); GSI2 (`ALARMS#NOTIFY`)
 * holds only items with notices pending, until the notifier stored the digests carrying them.
 * Every one of these index keys is sharded (`<key>#<shard>`, K shards by pair): readers query
 * the shards in parallel and merge (lib/db/shards.ts).
 * A cleared alarm stays as the pair's last state until `expiresAt` (TTL); a new alarm reuses the item.
 */
const OPEN = 'ALARMS#OPEN';
const PENDING = 'ALARMS#PENDING';
const HISTORY = 'ALARMS#HISTORY';
const NOTIFY = 'ALARMS#NOTIFY';
/** Firing alarms stored before pending existed say `open`. */
const LEGACY_FIRING = 'open';
const keys = (alarm: Pick<Alarm, 'watcherId' | 'devicesn'>) => ({ PK: `ALARM#${alarm.watcherId}`, SK: `DEVICE#${alarm.devicesn}` });
const openSk = (alarm: Alarm) => `${alarm.raisedAt}#${alarm.watcherId}#${alarm.devicesn}`;
const pendingSk = (alarm: OpenAlarm) => `${alarm.firesAt ?? alarm.raisedAt}#${alarm.watcherId}#${alarm.devicesn}`;
const ACK_FIELDS = ['acknowledgedAt', 'acknowledgedBy', 'ackComment'];

const fromItem = (item: Item): OpenAlarm => {
  const notify = (item.notify ?? {}) as Partial<Recipients>;
  const alarm: OpenAlarm = {
    watcherId: String(item.watcherId),
    devicesn: String(item.devicesn),
    deviceid: String(item.deviceid),
    severity: Number(item.severity) as Severity,
    region: String(item.region),
    location: String(item.location),
    room: String(item.room),
    raisedAt: String(item.raisedAt),
    state: item.state === 'pending' ? 'pending' : 'firing',
    notify: {
      sendEmail: notify.sendEmail === true,
      emails: Array.isArray(notify.emails) ? notify.emails.map(String) : [],
      ...(Array.isArray(notify.channelIds) && notify.channelIds.length ? { channelIds: notify.channelIds.map(String) } : {}),
    },
  };
  if (typeof item.description === 'string' && item.description !== '') alarm.description = item.description;
  if (typeof item.pendingSince === 'string') alarm.pendingSince = item.pendingSince;
  if (typeof item.firesAt === 'string' && alarm.state === 'pending') alarm.firesAt = item.firesAt;
  const acknowledgement = acknowledgementOf(item);
  if (acknowledgement) alarm.acknowledgement = acknowledgement;
  if (item.notified && typeof item.notified === 'object') alarm.notified = item.notified as Notified;
  return alarm;
};

const acknowledgementOf = (item: Item): Acknowledgement | undefined => {
  if (typeof item.acknowledgedAt !== 'string') return undefined;
  const ack: Acknowledgement = { acknowledgedAt: item.acknowledgedAt, acknowledgedBy: String(item.acknowledgedBy) };
  if (typeof item.ackComment === 'string') ack.ackComment = item.ackComment;
  return ack;
};

/** An open alarm as GET /alarms answers it (the acknowledgement flattened; silences are added by the domain). */
export interface AlarmView extends Alarm, Partial<Acknowledgement> {
  id: string;
  state: AlarmState;
  pendingSince?: string;
  firesAt?: string;
}
export const viewOf = ({ notify: _notify, notified: _notified, acknowledgement, ...alarm }: OpenAlarm): AlarmView => ({
  id: alarmId(alarm),
  ...alarm,
  ...acknowledgement,
});
const toView = (item: Item): AlarmView => viewOf(fromItem(item));

/** A cleared alarm as stored, for its history record. */
export interface ClearedAlarm extends OpenAlarm {
  clearedAt: string;
  clearReason: ClearReason;
}
const toCleared = (item: Item): ClearedAlarm => ({
  ...fromItem(item),
  state: 'firing',
  clearedAt: String(item.clearedAt),
  clearReason: String(item.clearReason) as ClearReason,
});

const expression = (set: Record<string, unknown>, remove: string[], append: Record<string, unknown[]> = {}) =>
  updateExpression({ set, remove, append });

/** Runs a conditional update; false when the condition did not hold (someone got there first). */
const conditional = async (input: ConstructorParameters<typeof UpdateCommand>[0]): Promise<boolean> => {
  try {
    await doc.send(new UpdateCommand(input));
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
};

const noticeFields = (alarm: Alarm, notice: Notice | undefined): { set: Record<string, unknown>; append: Record<string, unknown[]> } =>
  notice ? { set: { GSI2PK: shardKey(NOTIFY, alarmId(alarm)), GSI2SK: alarmId(alarm) }, append: { pendingNotices: [notice] } } : { set: {}, append: {} };

/** Everything a firing alarm's item holds (its notice aside); `FIRING_REMOVES` are what an older alarm of the pair may have left. */
const firingFields = (alarm: OpenAlarm, delivery: Delivery | undefined): Item => ({
  type: 'Alarm',
  state: 'firing',
  watcherId: alarm.watcherId,
  devicesn: alarm.devicesn,
  ...alarmFields(alarm),
  raisedAt: alarm.raisedAt,
  pendingSince: alarm.pendingSince,
  notify: alarm.notify,
  notified: { raised: delivery ?? [] },
  ...acknowledgementFields(alarm.acknowledgement),
  GSI1PK: shardKey(OPEN, alarmId(alarm)),
  GSI1SK: openSk(alarm),
});
const FIRING_REMOVES = ['clearedAt', 'clearReason', 'expiresAt', 'firesAt'];
const announceRaised = (alarm: OpenAlarm) => announceStored({ kind: 'alarm', event: 'raised', at: new Date().toISOString(), alarm: { ...viewOf(alarm), state: 'firing' } });

/** Batch requests in flight for storms (reads of 100 keys, writes of 25 items). */
const BATCHES_IN_FLIGHT = 8;

/** The stored items of the given pairs (consistent BatchGetItem, 100 keys a request), by alarm id. */
const itemsOf = async (pairs: readonly Pick<Alarm, 'watcherId' | 'devicesn'>[], projection?: string, names?: Record<string, string>): Promise<Map<string, Item>> => {
  const items = await batchGet(pairs.map(keys), {
    inFlight: BATCHES_IN_FLIGHT,
    ...(projection ? { projection: { ProjectionExpression: projection, ExpressionAttributeNames: names } } : {}),
  });
  return new Map(items.map((item) => [alarmId({ watcherId: String(item.PK).slice(6), devicesn: String(item.SK).slice(7) }), item]));
};

const alarmFields = (alarm: Alarm) => ({
  deviceid: alarm.deviceid,
  severity: alarm.severity,
  region: alarm.region,
  location: alarm.location,
  room: alarm.room,
  description: alarm.description,
});

/** Filters of GET /alarms: an absent field (or `all` for names) does not narrow. */
export interface AlarmFilter {
  region?: string;
  location?: string;
  room?: string;
  severity?: Severity;
  watcherId?: string;
  /** `firing` (default) or `pending`: each is its own index key. */
  state?: AlarmState;
  acknowledged?: boolean;
  /** A scoped caller's places (lib/shared/access.ts narrowToScope, at least one): only alarms in one of them. */
  within?: readonly PlaceFilter[];
}

const filterExpression = ({ state: _state, acknowledged, within, ...fields }: AlarmFilter) => {
  const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
  const terms = entries.map((_, i) => `#f${i} = :f${i}`);
  const names: Record<string, string> = Object.fromEntries(entries.map(([field], i) => [`#f${i}`, field]));
  const values: Record<string, unknown> = Object.fromEntries(entries.map(([, value], i) => [`:f${i}`, value]));
  if (acknowledged !== undefined) {
    terms.push(acknowledged ? 'attribute_exists(#ack)' : 'attribute_not_exists(#ack)');
    names['#ack'] = 'acknowledgedAt';
  }
  const inScope = within ? withinCondition(within) : undefined;
  if (inScope) {
    terms.push(inScope.expression);
    Object.assign(names, inScope.names);
    Object.assign(values, inScope.values);
  }
  if (terms.length === 0) return {};
  return { FilterExpression: terms.join(' AND '), names, values };
};

const FIRING_CONDITION = '(#state = :firing OR #state = :legacy) AND #raisedAt = :raisedAt';
const firingGuard = (alarm: Alarm) => ({
  names: { '#state': 'state', '#raisedAt': 'raisedAt' },
  values: { ':firing': 'firing', ':legacy': LEGACY_FIRING, ':raisedAt': alarm.raisedAt },
});
/** A new alarm may take the pair's item when there is none, or its last alarm is over and its history written. */
const NEW_CONDITION = 'attribute_not_exists(PK) OR ((#state = :cleared OR #state = :dropped) AND attribute_not_exists(GSI1PK))';
const newGuard = { names: { '#state': 'state' }, values: { ':cleared': 'cleared', ':dropped': 'dropped' } };

const acknowledgementFields = (ack: Acknowledgement | undefined): Record<string, unknown> => ({
  acknowledgedAt: ack?.acknowledgedAt,
  acknowledgedBy: ack?.acknowledgedBy,
  ackComment: ack?.ackComment,
});

/** An alarm to fire: its notice (written on it), where that went, and the pending alarm it fires (its `raisedAt`), if any. */
export interface Raise {
  alarm: OpenAlarm;
  notice?: Notice | undefined;
  delivery?: Delivery | undefined;
  fromPending?: string | undefined;
}

export interface PendingNotices {
  alarm: Pick<Alarm, 'watcherId' | 'devicesn'>;
  notices: Notice[];
}

const missingAlarm = (id: string) => new NotFound(`Alarm ${id} not found`);
const notOpen = (id: string) => new Conflict(`Alarm ${id} is no longer open`);
const OPEN_CONDITION = 'attribute_exists(PK) AND (#state = :firing OR #state = :legacy OR #state = :pending)';
const openGuard = { names: { '#state': 'state' }, values: { ':firing': 'firing', ':legacy': LEGACY_FIRING, ':pending': 'pending' } };

// The repository is this module, imported whole (`import * as alarms from '#lib/db/alarms'`):
// each function is its own export, so a bundle keeps only those it calls (docs/decisions.md
// "Bundle size against the floor").

/** Every open alarm, firing and pending (two index keys: O(open alarms), never the history). */
export const open = async (): Promise<OpenAlarm[]> => {
  const [firing, pending] = await Promise.all([OPEN, PENDING].map((base) => queryShards(base, (pk) => ({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': pk },
  }))));
  return [...firing!, ...pending!].map(fromItem);
};

/** The open (firing or pending) alarms among the given (watcher, device) pairs: consistent BatchGetItem, O(pairs). */
export const openAmong = async (pairs: readonly Pick<Alarm, 'watcherId' | 'devicesn'>[]): Promise<OpenAlarm[]> => {
  const isOpen = (item: Item) => item.state === 'firing' || item.state === LEGACY_FIRING || item.state === 'pending';
  return [...(await itemsOf(pairs)).values()].filter(isOpen).map(fromItem);
};

/** The open (firing or pending) alarms of one watcher (its partition, the rest filtered out). */
export const openOf = async (watcherId: string): Promise<OpenAlarm[]> => {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk',
    FilterExpression: '#state IN (:firing, :legacy, :pending)',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: { ':pk': keys({ watcherId, devicesn: '' }).PK, ':firing': 'firing', ':legacy': LEGACY_FIRING, ':pending': 'pending' },
    ConsistentRead: true,
  });
  return items.map(fromItem);
};

/** Pending alarms whose `firesAt` is at or before `now`: the timers that are due (O(due alarms)). */
export const duePending = async (now: string): Promise<OpenAlarm[]> => {
  const items = await queryShards(PENDING, (pk) => ({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK <= :now',
    ExpressionAttributeValues: { ':pk': pk, ':now': `${now}#\uffff` },
  }));
  return items.map(fromItem);
};

/**
 * Open alarms newest first (firing by default, or pending), narrowed by the filter (a
 * FilterExpression on that state's index key: a page costs the open alarms read to fill it).
 * All of them, or one page.
 */
export const list = async (filter: AlarmFilter, page: { limit?: number; cursor?: string }): Promise<AlarmView[] | Page<AlarmView>> => {
  const { FilterExpression, names, values } = filterExpression(filter);
  const answer = await queryShardsDescending(
    {
      base: filter.state === 'pending' ? PENDING : OPEN,
      index: 'GSI1',
      ...(FilterExpression ? { FilterExpression, ExpressionAttributeNames: names, ExpressionAttributeValues: values } : {}),
    },
    page,
    `alarms ${JSON.stringify(filter)}`,
  );
  return Array.isArray(answer) ? answer.map(toView) : { items: answer.items.map(toView), nextCursor: answer.nextCursor };
};

/**
 * One alarm (open or not) by its pair; undefined when the pair has none (or only a dropped pending
 * one, or a cleared one past its `expiresAt`: TTL deletes lazily, up to days later, DESIGN §3).
 */
export const get = async (pair: Pick<Alarm, 'watcherId' | 'devicesn'>): Promise<(AlarmView & { open: boolean }) | undefined> => {
  const { Item: item } = await doc.send(new GetCommand({ TableName: tableName(), Key: keys(pair), ConsistentRead: true }));
  if (!item || item.state === 'dropped' || hasExpired(item)) return undefined;
  return { ...toView(item), open: item.state !== 'cleared' };
};

/**
 * Fires the pair's alarm: a new one (unless one is open already), or the pending one stored
 * with `raisedAt = fromPending`. Its notice (if any) lands in the same write, and where it went.
 */
export const raise = async (alarm: OpenAlarm, notice?: Notice, delivery?: Delivery, fromPending?: string): Promise<boolean> => {
  const extra = noticeFields(alarm, notice);
  const [condition, names, values] = fromPending
    ? ['#state = :pending AND #raisedAt = :from', { '#state': 'state', '#raisedAt': 'raisedAt' }, { ':pending': 'pending', ':from': fromPending }]
    : [NEW_CONDITION, newGuard.names, newGuard.values];
  const raised = await conditional({
    TableName: tableName(),
    Key: keys(alarm),
    ...withCondition(expression({ ...firingFields(alarm, delivery), ...extra.set }, FIRING_REMOVES, extra.append), condition, names, values),
  });
  if (raised) await announceRaised(alarm);
  return raised;
};

/**
 * Fires many alarms (a storm): each new alarm whose pair's item is absent, or over with its
 * history written and no notice left on it, is put whole, 25 a BatchWriteItem (no condition:
 * see docs/decisions.md "Storms: raises in batches"); the others, and pending alarms that
 * fire, go through `raise` one by one. Answers, in input order, whether each was raised.
 */
export const raiseAll = async (list: readonly Raise[], inTime: () => boolean): Promise<boolean[]> => {
  const fresh = list.flatMap((raise, i) => (raise.fromPending === undefined ? [i] : []));
  const stored = await itemsOf(fresh.map((i) => list[i]!.alarm), 'PK, SK, #state, GSI1PK, GSI2PK', { '#state': 'state' });
  const free = new Set(
    fresh.filter((i) => {
      const item = stored.get(alarmId(list[i]!.alarm));
      return !item || ((item.state === 'cleared' || item.state === 'dropped') && item.GSI1PK === undefined && item.GSI2PK === undefined);
    }),
  );
  const batched = [...free];
  const puts = batched.map((i) => {
    const { alarm, notice, delivery } = list[i]!;
    const item: Item = { ...keys(alarm), ...firingFields(alarm, delivery) };
    if (notice) Object.assign(item, noticeFields(alarm, notice).set, { pendingNotices: [notice] });
    for (const [field, value] of Object.entries(item)) if (value === undefined) delete item[field];
    return { PutRequest: { Item: item } };
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
  return conditional({
    TableName: tableName(),
    Key: keys(alarm),
    ...withCondition(
      expression(
        {
          type: 'Alarm',
          state: 'pending',
          watcherId: alarm.watcherId,
          devicesn: alarm.devicesn,
          ...alarmFields(alarm),
          raisedAt: alarm.raisedAt,
          pendingSince: alarm.pendingSince ?? alarm.raisedAt,
          firesAt: alarm.firesAt,
          notify: alarm.notify,
          GSI1PK: shardKey(PENDING, alarmId(alarm)),
          GSI1SK: pendingSk(alarm),
        },
        ['clearedAt', 'clearReason', 'expiresAt', 'notified', ...ACK_FIELDS],
      ),
      NEW_CONDITION,
      newGuard.names,
      newGuard.values,
    ),
  });
};

/** A pending alarm whose condition stopped before it fired: leaves every index, no mail, no history. */
export const drop = async (alarm: OpenAlarm, at: string, expiresAt: number): Promise<boolean> => {
  return conditional({
    TableName: tableName(),
    Key: keys(alarm),
    ...withCondition(
      expression({ state: 'dropped', clearedAt: at, expiresAt }, ['GSI1PK', 'GSI1SK']),
      '#state = :pending AND #raisedAt = :raisedAt',
      { '#state': 'state', '#raisedAt': 'raisedAt' },
      { ':pending': 'pending', ':raisedAt': alarm.raisedAt },
    ),
  });
};

/**
 * Clears the firing alarm raised at `alarm.raisedAt`; false when it is not firing (any more).
 * The item waits under `ALARMS#HISTORY` until its history record is written.
 */
export const clear = async (alarm: OpenAlarm, clearedAt: string, reason: ClearReason, expiresAt: number, notice?: Notice, delivery?: Delivery): Promise<boolean> => {
  const extra = noticeFields(alarm, notice);
  const guard = firingGuard(alarm);
  const cleared = await conditional({
    TableName: tableName(),
    Key: keys(alarm),
    ...withCondition(
      expression(
        {
          state: 'cleared',
          clearedAt,
          clearReason: reason,
          expiresAt,
          notified: { ...(alarm.notified ?? {}), cleared: delivery ?? [] },
          GSI1PK: shardKey(HISTORY, alarmId(alarm)),
          GSI1SK: `${clearedAt}#${alarm.watcherId}#${alarm.devicesn}`,
          ...extra.set,
        },
        [],
        extra.append,
      ),
      FIRING_CONDITION,
      guard.names,
      guard.values,
    ),
  });
  if (cleared) await announceStored({ kind: 'alarm', event: 'cleared', at: clearedAt, alarm: { ...viewOf(alarm), clearedAt, clearReason: reason } });
  return cleared;
};

/** Carries a changed severity, room, description or firing time into an alarm that stays open (no mail). */
export const update = async (alarm: OpenAlarm): Promise<boolean> => {
  const pending = alarm.state === 'pending';
  const [condition, names, values] = pending
    ? ['#state = :pending AND #raisedAt = :raisedAt', { '#state': 'state', '#raisedAt': 'raisedAt' }, { ':pending': 'pending', ':raisedAt': alarm.raisedAt }]
    : [FIRING_CONDITION, firingGuard(alarm).names, firingGuard(alarm).values];
  return conditional({
    TableName: tableName(),
    Key: keys(alarm),
    ...withCondition(
      expression(pending ? { ...alarmFields(alarm), firesAt: alarm.firesAt, GSI1SK: pendingSk(alarm) } : alarmFields(alarm), []),
      condition,
      names,
      values,
    ),
  });
};

const acknowledgeWhere = async (
  pair: Pick<Alarm, 'watcherId' | 'devicesn'>,
  ack: Acknowledgement | undefined,
  place?: Pick<Alarm, 'region' | 'location'>,
): Promise<AlarmView | undefined> => {
  const id = alarmId(pair);
  const at: { condition: string; names: Record<string, string>; values: Record<string, string> } = place
    ? {
        condition: ' AND #region = :region AND #location = :location',
        names: { '#region': 'region', '#location': 'location' },
        values: { ':region': place.region, ':location': place.location },
      }
    : { condition: '', names: {}, values: {} };
  try {
    const { Attributes } = await doc.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys(pair),
        ...withCondition(
          expression(acknowledgementFields(ack), []),
          OPEN_CONDITION + at.condition,
          { ...openGuard.names, ...at.names },
          { ...openGuard.values, ...at.values },
        ),
        ReturnValues: 'ALL_NEW',
      }),
    );
    const view = toView(Attributes ?? {});
    if (ack) await announceStored({ kind: 'alarm', event: 'acknowledged', at: ack.acknowledgedAt, alarm: view });
    return view;
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    const now = await get(pair);
    if (!now) throw missingAlarm(id);
    if (now.open && place && (now.region !== place.region || now.location !== place.location)) return undefined;
    throw notOpen(id);
  }
};

/** Records (or, with undefined, removes) the acknowledgement of an open alarm; 404 unknown, 409 not open. */
export const acknowledge = async (pair: Pick<Alarm, 'watcherId' | 'devicesn'>, ack: Acknowledgement | undefined): Promise<AlarmView> => {
  const view = await acknowledgeWhere(pair, ack);
  if (!view) throw notOpen(alarmId(pair)); // never: without a place nothing counts as moved
  return view;
};

/**
 * As `acknowledge`, only while the alarm is still at `place` (a scoped caller checked that place
 * against its scope): undefined when the open alarm has moved meanwhile (its device moved), to be
 * checked again.
 */
export const acknowledgeAt = async (
  pair: Pick<Alarm, 'watcherId' | 'devicesn'>,
  ack: Acknowledgement | undefined,
  place: Pick<Alarm, 'region' | 'location'>,
): Promise<AlarmView | undefined> => acknowledgeWhere(pair, ack, place);

/** Cleared alarms whose history record is not written yet, oldest first. */
export const awaitingHistory = async (): Promise<ClearedAlarm[]> => {
  const items = await queryShards(HISTORY, (pk) => ({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': pk },
  }));
  return items.map(toCleared);
};

/** The history record of the clear at `clearedAt` is written: the item leaves the waiting list. */
export const historyWritten = async (alarm: Pick<ClearedAlarm, 'watcherId' | 'devicesn' | 'clearedAt'>): Promise<boolean> => {
  return conditional({
    TableName: tableName(),
    Key: keys(alarm),
    UpdateExpression: 'REMOVE GSI1PK, GSI1SK',
    ConditionExpression: '#state = :cleared AND #clearedAt = :at AND GSI1PK = :pk',
    ExpressionAttributeNames: { '#state': 'state', '#clearedAt': 'clearedAt' },
    ExpressionAttributeValues: { ':cleared': 'cleared', ':at': alarm.clearedAt, ':pk': shardKey(HISTORY, alarmId(alarm)) },
  });
};

/** The firing alarms of one watcher (its own partition; repeat notifications). */
export const firingOf = async (watcherId: string): Promise<OpenAlarm[]> => {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk',
    FilterExpression: '#state = :firing OR #state = :legacy',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: { ':pk': keys({ watcherId, devicesn: '' }).PK, ':firing': 'firing', ':legacy': LEGACY_FIRING },
  });
  return items.map(fromItem);
};

/** Alarms with notices not yet carried by a stored digest, oldest transition first within each alarm. */
export const pendingNotices = async (): Promise<PendingNotices[]> => {
  const items = await queryShards(NOTIFY, (pk) => ({
    IndexName: 'GSI2',
    KeyConditionExpression: 'GSI2PK = :pk',
    ExpressionAttributeValues: { ':pk': pk },
    ProjectionExpression: 'watcherId, devicesn, pendingNotices',
  }));
  return items.map((item) => ({
    alarm: { watcherId: String(item.watcherId), devicesn: String(item.devicesn) },
    notices: (Array.isArray(item.pendingNotices) ? item.pendingNotices : []) as Notice[],
  }));
};

/**
 * The pending notices of these alarms as the table holds them now (consistent BatchGetItem):
 * what an index copy showed may be older, or already collected (DESIGN §3).
 */
export const noticesOf = async (pairs: readonly Pick<Alarm, 'watcherId' | 'devicesn'>[]): Promise<PendingNotices[]> => {
  const items = await itemsOf(pairs, 'PK, SK, watcherId, devicesn, pendingNotices');
  return [...items.values()]
    .filter((item) => Array.isArray(item.pendingNotices) && item.pendingNotices.length > 0)
    .map((item) => ({ alarm: { watcherId: String(item.watcherId), devicesn: String(item.devicesn) }, notices: item.pendingNotices as Notice[] }));
};

/** Drops the first `delivered` pending notices of an alarm, and its place in the pending index once none is left. */
export const noticesCollected = async (alarm: Pick<Alarm, 'watcherId' | 'devicesn'>, delivered: readonly Notice[]): Promise<void> => {
  if (delivered.length === 0) return;
  const names = { '#mails': 'pendingNotices', '#id': 'id' };
  const all = await conditional({
    TableName: tableName(),
    Key: keys(alarm),
    UpdateExpression: 'REMOVE #mails, GSI2PK, GSI2SK',
    ConditionExpression: 'size(#mails) = :n AND #mails[0].#id = :first',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: { ':n': delivered.length, ':first': delivered[0]!.id },
  });
  if (all) return;
  // a newer transition appended a notice meanwhile: drop only those collected, keep it pending;
  // at most REMOVED_PER_UPDATE a write, so the expression stays far below DynamoDB's 4 KB
  for (let start = 0; start < delivered.length; start += REMOVED_PER_UPDATE) {
    const chunk = delivered.slice(start, start + REMOVED_PER_UPDATE);
    const removed = await conditional({
      TableName: tableName(),
      Key: keys(alarm),
      UpdateExpression: `REMOVE ${chunk.map((_, i) => `#mails[${i}]`).join(', ')}`,
      ConditionExpression: '#mails[0].#id = :first',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':first': chunk[0]!.id },
    });
    if (!removed) return;
  }
};

/** List elements one REMOVE drops: `#mails[999]` is 11 bytes, so 200 of them stay under 2.5 KB. */
const REMOVED_PER_UPDATE = 200;

function withCondition(
  update: ReturnType<typeof expression>,
  ConditionExpression: string,
  names: Record<string, string>,
  values: Record<string, unknown>,
) {
  return {
    ...update,
    ConditionExpression,
    ExpressionAttributeNames: { ...update.ExpressionAttributeNames, ...names },
    ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ...values },
  };
}
