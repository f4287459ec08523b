import type { ClearReason } from '#lib/alarms/types';
import { ALARM_INDEX, AlarmEntity, alarmIndexKeys } from '#lib/alarms/entities';
import { expr, type Item } from '#lib/store/expression';
import { queryShards } from '#lib/store/query';

// The hand-off to the history (docs/adr/0321-persistence-layer-says-things-once.md): a cleared alarm waits under `ALARMS#HISTORY` until its record is written.
const clearedOf = (item: Item) => ({ ...AlarmEntity.fromItem(item), clearedAt: String(item.clearedAt), clearReason: String(item.clearReason) as ClearReason });

/** A cleared alarm as stored (`state` read as firing), for its history record. */
export type ClearedAlarm = ReturnType<typeof clearedOf>;

/** Cleared alarms whose history record is not written yet, oldest first. */
export const awaitingHistory = async (): Promise<ClearedAlarm[]> => (await queryShards(ALARM_INDEX.history, { index: 'GSI1' })).map(clearedOf);

/** The history record of the clear at `clearedAt` is written: the item leaves the waiting list. */
export const historyWritten = async (alarm: Pick<ClearedAlarm, 'watcherId' | 'devicesn' | 'clearedAt'>): Promise<boolean> => {
  const waiting = expr('#state = :cleared AND #clearedAt = :at AND #GSI1PK = :pk', { cleared: 'cleared', at: alarm.clearedAt, pk: alarmIndexKeys.history(alarm, alarm.clearedAt).GSI1PK });
  return !!(await AlarmEntity.update(alarm, { remove: ['GSI1PK', 'GSI1SK'] }, waiting));
};
