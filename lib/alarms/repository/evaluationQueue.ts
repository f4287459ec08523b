import { mapConcurrent } from '#lib/shared/concurrency';
import type { StoredDevice } from '#lib/devices/types';
import { QUEUE, QueuedDevicesEntity, QueuedWatcherEntity, queueTokenOf } from '#lib/alarms/entities';
import { queryShards } from '#lib/store/query';
import { batchWrite, chunked, deleteRequest, EXISTS, put, putRequest, update, type Item, type Key } from '#lib/store/table';
import { apart } from '#lib/store/transaction';

// The alarm engine's work queue, written before the change it stands for, deleted after (docs/adr/0131-evaluation-queue.md and docs/guide/rules/alarms.md "Devices queued together are folded into one queue item").
// Apart from the change it stands for, not in its transaction: an entry for a change that did not happen is harmless, and devices are queued in batches (docs/adr/0550).
/** Devices folded into one queue item: ~300 bytes each, far below the 400 KB item limit. */
const DEVICES_PER_ITEM = 64;
const BATCHES_IN_FLIGHT = 8;

export interface DeviceWork {
  devicesn: string;
  /** The device as the change wrote it; absent when it vanished. */
  device?: StoredDevice;
  /** From a lagging index (the watcher pass): the device pass reads the device by key instead. */
  reread?: boolean;
  /** Watchers that may have an open alarm on it ('any': not known, ask every watcher). */
  alarmWatchers: string[] | 'any';
  notBefore?: number;
}

export type QueuedEvaluation =
  /** `order`: later entries of the same device sort higher; `claimed`: a run started on it (and did not finish). */
  | ({ kind: 'device'; key: Key; order: string; queuedAt: number; claimed?: string } & DeviceWork)
  | { kind: 'watcher'; key: Key; watcherId: string; queuedAt: number; notBefore?: number };

let sequence = 0;
const token = (now: number) => `${now.toString(36).padStart(9, '0')}.${(sequence++ % 1e6).toString(36).padStart(4, '0')}.${Math.random().toString(36).slice(2, 8)}`;

const workOf = (work: DeviceWork): Item => ({
  devicesn: work.devicesn,
  ...(work.device ? { device: work.device } : {}),
  ...(work.reread ? { reread: true } : {}),
  alarmWatchers: work.alarmWatchers,
  ...(work.notBefore === undefined ? {} : { notBefore: work.notBefore }),
});

/** One item per shard, due time and DEVICES_PER_ITEM devices queued together. */
const deviceItems = (work: readonly DeviceWork[], now: number): Item[] => {
  const groups = new Map<string, DeviceWork[]>();
  for (const entry of work) {
    const group = `${QueuedDevicesEntity.key({ shardOf: entry.devicesn, token: '' }).PK}#${entry.notBefore ?? ''}`;
    groups.set(group, [...(groups.get(group) ?? []), entry]);
  }
  return [...groups.values()].flatMap((list) =>
    chunked(list, DEVICES_PER_ITEM).map((devices) => QueuedDevicesEntity.item({ shardOf: devices[0]!.devicesn, token: token(now) }, { kind: 'devices', devices: devices.map(workOf), queuedAt: now })),
  );
};

const notBeforeOf = (value: unknown) => (typeof value === 'number' ? { notBefore: value } : {});

const deviceEntry = (key: Key, order: string, queuedAt: number, work: Item, claimed: unknown): Extract<QueuedEvaluation, { kind: 'device' }> => {
  const device = typeof work.device === 'object' && work.device !== null ? { device: work.device as StoredDevice } : {};
  const alarmWatchers = Array.isArray(work.alarmWatchers) ? work.alarmWatchers.map(String) : 'any';
  const claim = typeof claimed === 'string' ? { claimed } : {};
  const reread = work.reread === true ? { reread: true } : {};
  return { kind: 'device', key, order, devicesn: String(work.devicesn), ...device, ...reread, alarmWatchers, queuedAt, ...notBeforeOf(work.notBefore), ...claim };
};

/** The entries of one stored item: a watcher, or the devices folded into it. */
const fromItem = (item: Item): QueuedEvaluation[] => {
  const key = { PK: String(item.PK), SK: String(item.SK) };
  const queuedAt = Number(item.queuedAt);
  if (item.kind === 'watcher') {
    return [{ kind: 'watcher', key, watcherId: String(item.watcherId), queuedAt, ...notBeforeOf(item.notBefore) }];
  }
  const order = queueTokenOf(key.SK);
  const devices = Array.isArray(item.devices) ? (item.devices as Item[]) : [];
  return devices.map((work, i) => deviceEntry(key, `${order}.${String(i).padStart(3, '0')}`, queuedAt, work, item.claimed));
};

const itemKeys = (entries: readonly QueuedEvaluation[]): Key[] => [...new Map(entries.map((entry) => [`${entry.key.PK}\u0000${entry.key.SK}`, entry.key])).values()];

export const evaluationQueue = {
  /** Queues devices (folded into few items, batched); answers the entries as stored. */
  async addDevices(work: readonly DeviceWork[]): Promise<QueuedEvaluation[]> {
    const items = deviceItems(work, Date.now());
    await batchWrite(items.map(putRequest), { inFlight: BATCHES_IN_FLIGHT });
    return items.flatMap(fromItem);
  },

  /** Queues one watcher: its alarms are re-evaluated over its targets alone. */
  async addWatcher(watcherId: string, now = Date.now()): Promise<QueuedEvaluation> {
    const item = QueuedWatcherEntity.item({ watcherId, token: token(now) }, { kind: 'watcher', watcherId, queuedAt: now });
    await apart(() => put(item)); // queued before the change it stands for, not part of it
    return fromItem(item)[0]!;
  },

  /** Everything queued (all shards), due or not. O(queued), never the fleet. */
  async list(): Promise<QueuedEvaluation[]> {
    return (await queryShards(QUEUE, { consistent: true })).flatMap(fromItem);
  },

  /** Marks the items a run is about to work on: a later run finding the mark recomputes their rooms (docs/guide/rules/alarms.md "Room statuses are repaired at start and by the next run"). */
  async claim(entries: readonly QueuedEvaluation[], runId: string): Promise<void> {
    // an entry another run finished meanwhile has nothing left to mark
    await mapConcurrent(itemKeys(entries), BATCHES_IN_FLIGHT, (key) => update(key, { set: { claimed: runId } }, EXISTS));
  },

  /** Drops the items of entries a finished evaluation covered (by their own keys: newer entries stay). */
  async remove(entries: readonly QueuedEvaluation[]): Promise<void> {
    await batchWrite(itemKeys(entries).map(deleteRequest), { inFlight: BATCHES_IN_FLIGHT });
  },
};
