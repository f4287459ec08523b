/**
 * `npm run migrate`: brings items stored by older versions to today's shape, once, so that the
 * repositories keep no branch for them (docs/adr/0311). Idempotent: each change is conditioned on
 * the older shape, so a second run (or a run racing another) changes nothing more. It reads the
 * whole table once (a Scan, paged): a one-off operation, never a request path. Against a stage:
 * `TABLE_NAME=device-monitoring-<stage> AWS_REGION=… npm run migrate`, before the new code is deployed.
 *
 * What it converts:
 * - alarms that fire with `state: open` (stored before pending alarms existed) -> `firing`;
 * - evaluation-queue items holding one device at top level (stored before folding) -> one folded item;
 * - alarm history whose region / fleet index keys are not sharded -> the sharded keys;
 * - deliveries still due under the unsharded due key -> the sharded key;
 * - users without an `incarnation` (stored before incarnations) -> a fresh one;
 * - repeat markers holding a slot index (stored before slot starts) -> the slot's start in ms, read
 *   with the watcher's interval as the notifier read them; a marker of a watcher that is gone or no
 *   longer repeats -> removed (nothing reads it, and an interval set later would misread it).
 */
import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { HistoryRecord } from '#lib/alarms/pure/history';
import { doc, tableName } from '#lib/store/client';
import { UserEntity } from '#lib/access/entities';
import { WatcherEntity } from '#lib/watchers/entities';
import { AlarmEntity, HistoryByPlaceEntity, historyPk, pairOfKey, QueuedDevicesEntity, queueTokenOf } from '#lib/alarms/entities';
import { DeliveryEntity, DELIVERIES_DUE, RepeatMarkerEntity } from '#lib/notify/entities';
import { expr } from '#lib/store/expression';
import { paged, shardKey } from '#lib/store/query';
import { NEW, put, remove, update, type Item } from '#lib/store/table';

/** Each page of the whole table: a one-off operation over every item, so the only Scan, and kept out of lib/ (no request path can reach it). */
const scanPages = () => paged((ExclusiveStartKey) => doc.send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey })));

/** Firing alarms stored before pending existed say `open`. */
const LEGACY_FIRING = 'open';

/** Repeat markers once held slot indexes (< 1e9 for any interval of an hour or more); now slot starts in ms. */
const SLOT_INDEX_BELOW = 1e9;

/** Keys and values of the older shapes, as tests write them. */
export const older = {
  /** A queue item of one device, before folding: `D#<sn>#<token>`. */
  queuedDeviceSk: (devicesn: string, token: string) => `D#${devicesn}#${token}`,
  firingState: LEGACY_FIRING,
  dueKey: DELIVERIES_DUE,
};

export type Conversion = 'firing' | 'folded' | 'historyKeys' | 'dueKey' | 'incarnation' | 'repeatSlot';

/** The conversion an item needs, if any. */
const needs = (item: Item): Conversion | undefined => {
  if (item.type === 'Alarm' && item.state === LEGACY_FIRING) return 'firing';
  if (item.type === 'QueuedEvaluation' && item.kind !== 'devices' && item.kind !== 'watcher') return 'folded';
  if (item.type === 'AlarmHistory' && (item.GSI2PK === historyPk.all() || item.GSI1PK === historyPk.region(String(item.region)))) return 'historyKeys';
  if (item.type === 'Delivery' && item.GSI2PK === DELIVERIES_DUE) return 'dueKey';
  if (item.type === 'User' && (item.incarnation === undefined || item.incarnation === '')) return 'incarnation';
  if (item.type === 'RepeatMarker' && typeof item.slot === 'number' && item.slot < SLOT_INDEX_BELOW) return 'repeatSlot';
  return undefined;
};

/** Converts one item; false when it had changed meanwhile (someone else converted or rewrote it). */
const convert: Record<Conversion, (item: Item) => Promise<boolean>> = {
  firing: async (item) => !!(await update(AlarmEntity.key(pairOfKey(item)), { set: { state: 'firing' } }, expr('#state = :legacy', { legacy: LEGACY_FIRING }))),
  folded: async (item) => {
    const { PK, SK, type: _type, kind: _kind, queuedAt, claimed, ...work } = item;
    const folded = QueuedDevicesEntity.item({ shardOf: String(work.devicesn), token: queueTokenOf(String(SK)) }, {
      kind: 'devices',
      devices: [work],
      queuedAt,
      ...(claimed === undefined ? {} : { claimed }),
    });
    // in the partition the device was queued in; already there: an earlier run stopped before the delete
    await put({ ...folded, PK }, NEW);
    return remove({ PK: String(PK), SK: String(SK) }, 'attribute_exists(PK)');
  },
  historyKeys: async (item) => {
    const { GSI1PK, GSI2PK } = HistoryByPlaceEntity.key(item as unknown as HistoryRecord);
    return !!(await update({ PK: String(item.PK), SK: String(item.SK) }, { set: { GSI1PK, GSI2PK } }, expr('#GSI2PK = :was OR #GSI1PK = :wasRegion', { was: historyPk.all(), wasRegion: historyPk.region(String(item.region)) })));
  },
  dueKey: async (item) =>
    !!(await update(DeliveryEntity.key(String(item.deliveryId)), { set: { GSI2PK: shardKey(DELIVERIES_DUE, String(item.deliveryId)) } }, expr('#GSI2PK = :was', { was: DELIVERIES_DUE }))),
  incarnation: async (item) =>
    !!(await update(UserEntity.key(String(item.username)), { set: { incarnation: randomUUID() } }, expr('attribute_exists(PK) AND (attribute_not_exists(#incarnation) OR #incarnation = :empty)', { empty: '' }))),
  repeatSlot: async (item) => {
    const watcherId = String(item.watcherId);
    const was = expr('#slot = :was', { was: item.slot });
    const interval = (await WatcherEntity.find(watcherId, { consistent: true }))?.repeatIntervalSeconds ?? 0;
    if (interval <= 0) return RepeatMarkerEntity.remove(watcherId, was);
    return !!(await RepeatMarkerEntity.update(watcherId, { set: { slot: Number(item.slot) * interval * 1000 } }, was));
  },
};

/** Converts every item of an older shape (`only`: those it accepts); answers how many of each it converted. */
export const migrate = async (only: (item: Item) => boolean = () => true): Promise<Record<Conversion, number>> => {
  const converted: Record<Conversion, number> = { firing: 0, folded: 0, historyKeys: 0, dueKey: 0, incarnation: 0, repeatSlot: 0 };
  for await (const page of scanPages()) {
    for (const item of page.items) {
      const conversion = only(item) ? needs(item) : undefined;
      if (conversion && (await convert[conversion](item))) converted[conversion]++;
    }
  }
  return converted;
};

if (require.main === module) {
  migrate()
    .then((converted) => console.log(`migrated ${tableName()}: ${JSON.stringify(converted)}`))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
