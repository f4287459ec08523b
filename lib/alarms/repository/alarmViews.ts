import type { Severity } from '#lib/devices/types';
import { alarmId, type AckEvent, type Acknowledgement, type Alarm, type AlarmKey as Pair, type AlarmState, type OpenAlarm } from '#lib/alarms/types';
import { viewOf, type AlarmView } from '#lib/alarms/pure/view';
import { Conflict, NotFound } from '#lib/shared/errors';
import type { PlaceFilter } from '#lib/shared/access';
import { ALARM_INDEX, AlarmEntity, alarmIndexKeys, alarmPartition, pairOfKey } from '#lib/alarms/entities';
import { and, equal, expr, type Expr } from '#lib/store/expression';
import { mapListOrPage, queryPartitionsDescending, shardsOf, type Page } from '#lib/store/paging';
import { dueBy, queryAll, queryShards } from '#lib/store/query';
import { batchGet, hasExpired, type Item } from '#lib/store/table';
import { withinCondition } from '#lib/store/within';
import { announceStored } from './changes';

// The alarms' read model and acknowledgements (ADRs 0067, 0321): open = firing or pending.
const { fromItem } = AlarmEntity;

export { viewOf, type AlarmView };
const toView = (item: Item): AlarmView => viewOf(fromItem(item));
/** The stored fields of an acknowledgement: each absent one undefined, so an update removes it. */
export const ackFields = (ack: Acknowledgement | undefined) => ({
  acknowledgedAt: ack?.acknowledgedAt,
  acknowledgedBy: ack?.acknowledgedBy,
  ackComment: ack?.ackComment,
  ackUntil: ack?.ackUntil,
});

const OPEN = expr('#state IN (:firing, :pending)', { firing: 'firing', pending: 'pending' });
const isOpen = (item: Item) => item.state === 'firing' || item.state === 'pending';

/** Batch requests in flight for storms (reads of 100 keys, writes of 25 items). */
export const BATCHES_IN_FLIGHT = 8;

/** The stored items of the given pairs (consistent BatchGetItem, 100 keys a request), by alarm id. */
export const itemsOf = async (pairs: readonly Pair[], project?: readonly string[]): Promise<Map<string, Item>> => {
  const items = await batchGet(pairs.map(AlarmEntity.key), { inFlight: BATCHES_IN_FLIGHT, ...(project ? { project } : {}) });
  return new Map(items.map((item) => [alarmId(pairOfKey(item)), item]));
};

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
  /** A scoped caller's places (lib/shared/access.ts narrowToAccessScope, at least one): only alarms in one of them. */
  within?: readonly PlaceFilter[];
}

const filterOf = ({ state: _state, acknowledged, within, ...fields }: AlarmFilter): Expr | undefined => {
  const now = { ackNow: new Date().toISOString() };
  const ack =
    acknowledged === undefined
      ? undefined
      : acknowledged
        ? expr('attribute_exists(#acknowledgedAt) AND (attribute_not_exists(#ackUntil) OR #ackUntil > :ackNow)', now)
        : expr('(attribute_not_exists(#acknowledgedAt) OR #ackUntil <= :ackNow)', now);
  return and(equal(fields), ack, within ? withinCondition(within) : undefined);
};

// The repository is imported whole (`import * as alarms from '#lib/alarms/repository/alarms'`): each function
// is its own export, so a bundle keeps only those it calls (docs/adr: bundle size against the floor).

/** Every open alarm, firing and pending (two index keys: O(open alarms), never the history). */
export const open = async (): Promise<OpenAlarm[]> =>
  (await Promise.all([ALARM_INDEX.firing, ALARM_INDEX.pending].map((base) => queryShards(base, { index: 'GSI1' })))).flat().map(fromItem);

/** The open (firing or pending) alarms among the given (watcher, device) pairs: consistent BatchGetItem, O(pairs). */
export const openAmong = async (pairs: readonly Pair[]): Promise<OpenAlarm[]> => [...(await itemsOf(pairs)).values()].filter(isOpen).map(fromItem);

/** The open (firing or pending) alarms of one watcher (its partition, the rest filtered out). */
export const openOf = async (watcherId: string): Promise<OpenAlarm[]> => (await queryAll({ pk: alarmPartition(watcherId), filter: OPEN, consistent: true })).map(fromItem);

/** Pending alarms whose `firesAt` is at or before `now`: the timers that are due (O(due alarms)). */
export const duePending = async (now: string): Promise<OpenAlarm[]> =>
  (await queryShards(ALARM_INDEX.pending, { index: 'GSI1', sk: dueBy(now) })).map(fromItem);

/** The firing alarms of one watcher (its own partition; repeat notifications). */
export const firingOf = async (watcherId: string): Promise<OpenAlarm[]> =>
  (await queryAll({ pk: alarmPartition(watcherId), filter: expr('#state = :firing', { firing: 'firing' }) })).map(fromItem);

/** Open alarms newest first (firing by default, or pending), filtered on that state's index key: all, or one page. */
export const list = async (filter: AlarmFilter, page: { limit?: number; cursor?: string }): Promise<AlarmView[] | Page<AlarmView>> => {
  const condition = filterOf(filter);
  const partition = { pk: filter.state === 'pending' ? ALARM_INDEX.pending : ALARM_INDEX.firing, index: 'GSI1' as const, ...(condition ? { filter: condition } : {}) };
  return mapListOrPage(await queryPartitionsDescending(shardsOf(partition), page, `alarms ${JSON.stringify(filter)}`), toView);
};

/** One alarm by its pair; undefined when none, dropped, or cleared and expired (TTL deletes lazily, DESIGN §3). */
export const get = async (pair: Pair): Promise<(AlarmView & { open: boolean }) | undefined> => {
  const item = await AlarmEntity.read(pair, { consistent: true });
  if (!item || item.state === 'dropped' || hasExpired(item)) return undefined;
  return { ...toView(item), open: item.state !== 'cleared' };
};

const notOpen = (id: string) => new Conflict(`Alarm ${id} is no longer open`);

/** 409 of a first-only acknowledgement (an incident tool's): the open alarm is acknowledged already, and stays as it is. */
export class AlreadyAcknowledged extends Conflict {
  constructor(id: string) {
    super(`Alarm ${id} is acknowledged already`);
  }
}
/** The condition of a first-only acknowledgement: none stands. */
const UNACKNOWLEDGED = expr('attribute_not_exists(#acknowledgedAt)', {});

/** Acknowledgement events kept on one alarm: later ones still change it, unrecorded (docs/guide/rules/alarms.md "Ack and unack recorded on the alarm and carried into its history; the CSV unchanged"). */
export const MAX_ACK_EVENTS = 50;
const ROOM_FOR_EVENT = expr('(attribute_not_exists(#ackEvents) OR size(#ackEvents) < :maxAckEvents)', { maxAckEvents: MAX_ACK_EVENTS });
const eventsFull = async (pair: Pair): Promise<boolean> => {
  const events = (await AlarmEntity.read(pair, { consistent: true, project: ['ackEvents'] }))?.ackEvents;
  return Array.isArray(events) && events.length >= MAX_ACK_EVENTS;
};

/**
 * As `acknowledge`, with `place` only while the alarm is still there; undefined when it moved meanwhile (to be checked again).
 * `notice`: the acknowledgement told to incident tools (lib/notify/pagerduty), written in the same update as the acknowledgement (outbox).
 */
export const acknowledgeAt = async (
  pair: Pair,
  ack: Acknowledgement | undefined,
  place: Pick<Alarm, 'region' | 'location'> | undefined,
  event?: AckEvent,
  notice?: object,
  /** Only when no acknowledgement stands (else AlreadyAcknowledged): copies of one incident tool's webhook racing record one, not one each. */
  firstOnly = false,
): Promise<AlarmView | undefined> => {
  const at = place ? expr('#region = :region AND #location = :location', { region: place.region, location: place.location }) : undefined;
  const told: Record<string, unknown[]> = notice ? { pendingNotices: [notice] } : {};
  const write = (recorded: boolean) =>
    AlarmEntity.update(
      pair,
      { set: { ...ackFields(ack), ...(notice ? alarmIndexKeys.notices(pair) : {}) }, append: { ...(recorded && event ? { ackEvents: [event] } : {}), ...told } },
      and('attribute_exists(PK)', OPEN, at, recorded && event ? ROOM_FOR_EVENT : undefined, firstOnly ? UNACKNOWLEDGED : undefined),
      'ALL_NEW',
    );
  const acknowledged = (await write(true)) ?? (event && (await eventsFull(pair)) ? await write(false) : undefined);
  if (acknowledged) {
    const view = toView(acknowledged);
    if (ack) await announceStored({ kind: 'alarm', event: 'acknowledged', at: ack.acknowledgedAt, alarm: view });
    return view;
  }
  const id = alarmId(pair);
  const now = await get(pair);
  if (!now) throw new NotFound(`Alarm ${id} not found`);
  if (now.open && place && (now.region !== place.region || now.location !== place.location)) return undefined;
  if (now.open && firstOnly && now.acknowledgedAt) throw new AlreadyAcknowledged(id);
  throw notOpen(id);
};

/** Whether the alarm's history holds `event` already (the same action, time, author and comment): a redelivered note is not added twice. */
export const hasEvent = async (pair: Pair, event: AckEvent): Promise<boolean> => {
  const events = (await AlarmEntity.read(pair, { consistent: true, project: ['ackEvents'] }))?.ackEvents;
  return Array.isArray(events) && events.some((e: AckEvent) => e.action === event.action && e.at === event.at && e.by === event.by && e.comment === event.comment);
};

/** Adds `event` (a note) to the history of the open alarm raised at `raisedAt`: false when it is no longer that alarm, or its history is full. */
export const noteEvent = async (pair: Pair, raisedAt: string, event: AckEvent): Promise<boolean> =>
  !!(await AlarmEntity.update(pair, { append: { ackEvents: [event] } }, and(OPEN, expr('#raisedAt = :raisedAt', { raisedAt }), ROOM_FOR_EVENT)));

/** Records (or, with undefined, removes) the acknowledgement of an open alarm, and `event` in its history; 404 unknown, 409 not open. */
export const acknowledge = async (pair: Pair, ack: Acknowledgement | undefined, event?: AckEvent, notice?: object, firstOnly = false): Promise<AlarmView> => {
  const view = await acknowledgeAt(pair, ack, undefined, event, notice, firstOnly);
  if (!view) throw notOpen(alarmId(pair)); // never: without a place nothing counts as moved
  return view;
};

/**
 * Ends the acknowledgement given at `acknowledgedAt` whose `ackUntil` passed, and records it
 * (`event`, unless `recorded` is false: the alarm's events are full): false when that
 * acknowledgement no longer stands on an open alarm (replaced, removed, lapsed by another run, or cleared).
 */
export const lapse = async (pair: Pair, ack: Required<Pick<Acknowledgement, 'acknowledgedAt' | 'ackUntil'>>, event: AckEvent, recorded: boolean): Promise<boolean> =>
  !!(await AlarmEntity.update(
    pair,
    { set: ackFields(undefined), ...(recorded ? { append: { ackEvents: [event] } } : {}) },
    and(OPEN, expr('#acknowledgedAt = :acknowledgedAt AND #ackUntil = :ackUntil', ack)),
  ));
