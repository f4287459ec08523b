import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { StoredDevice } from '#lib/devices/types';
import { doc, tableName } from './client';
import { batchWrite, type Item } from './helpers';
import { queryShards, shardKey } from './shards';

/*
 * The alarm engine's work queue: one small item per device or watcher whose alarms must be
 * re-evaluated, written before the change it stands for (a sync's device writes, a watcher
 * write) and deleted only after the evaluation that covers it finished. So a run that dies
 * leaves its work queued, and the evaluator finds pending work by reading the queue (K small
 * partitions), never the fleet. `notBefore` (epoch ms) holds work that waits for a time.
 * Each entry has its own token in the key, so a newer entry for the same subject is never
 * deleted by a run that processed an older one.
 */
const QUEUE = 'EVALQ';

export interface DeviceWork {
  devicesn: string;
  /** The device as the change wrote it; absent when it vanished. */
  device?: StoredDevice;
  /** Watchers that may have an open alarm on it ('any': not known, ask every watcher). */
  alarmWatchers: string[] | 'any';
  notBefore?: number;
}

export type QueuedEvaluation =
  | ({ kind: 'device'; key: Item; queuedAt: number } & DeviceWork)
  | { kind: 'watcher'; key: Item; watcherId: string; queuedAt: number; notBefore?: number };

let sequence = 0;
const token = (now: number) => `${now.toString(36).padStart(9, '0')}.${(sequence++ % 1e6).toString(36)}.${Math.random().toString(36).slice(2, 8)}`;

const deviceItem = (work: DeviceWork, now: number): Item => ({
  PK: shardKey(QUEUE, work.devicesn),
  SK: `D#${work.devicesn}#${token(now)}`,
  type: 'QueuedEvaluation',
  kind: 'device',
  devicesn: work.devicesn,
  ...(work.device ? { device: work.device } : {}),
  alarmWatchers: work.alarmWatchers,
  queuedAt: now,
  ...(work.notBefore === undefined ? {} : { notBefore: work.notBefore }),
});

const fromItem = (item: Item): QueuedEvaluation => {
  const key = { PK: item.PK, SK: item.SK };
  const notBefore = typeof item.notBefore === 'number' ? { notBefore: item.notBefore } : {};
  if (item.kind === 'watcher') return { kind: 'watcher', key, watcherId: String(item.watcherId), queuedAt: Number(item.queuedAt), ...notBefore };
  const device = typeof item.device === 'object' && item.device !== null ? (item.device as StoredDevice) : undefined;
  const alarmWatchers = Array.isArray(item.alarmWatchers) ? item.alarmWatchers.map(String) : 'any';
  return { kind: 'device', key, devicesn: String(item.devicesn), ...(device ? { device } : {}), alarmWatchers, queuedAt: Number(item.queuedAt), ...notBefore };
};

export const evaluationQueue = {
  /** Queues devices (batched, 25 a request); answers the entries as stored. */
  async addDevices(work: readonly DeviceWork[], now = Date.now()): Promise<QueuedEvaluation[]> {
    const items = work.map((entry) => deviceItem(entry, now));
    await batchWrite(items.map((Item) => ({ PutRequest: { Item } })));
    return items.map(fromItem);
  },

  /** Queues one watcher: its alarms are re-evaluated over its targets alone. */
  async addWatcher(watcherId: string, now = Date.now()): Promise<QueuedEvaluation> {
    const Item = { PK: shardKey(QUEUE, watcherId), SK: `W#${watcherId}#${token(now)}`, type: 'QueuedEvaluation', kind: 'watcher', watcherId, queuedAt: now };
    await doc.send(new PutCommand({ TableName: tableName(), Item }));
    return fromItem(Item);
  },

  /** Everything queued (all shards), due or not. O(queued), never the fleet. */
  async list(): Promise<QueuedEvaluation[]> {
    const items = await queryShards(QUEUE, (pk) => ({ KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true }));
    return items.map(fromItem);
  },

  /** Drops entries a finished evaluation covered (by their own keys: newer entries stay). */
  async remove(entries: readonly QueuedEvaluation[]): Promise<void> {
    await batchWrite(entries.map((entry) => ({ DeleteRequest: { Key: entry.key } })));
  },
};
