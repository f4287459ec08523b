import { ReconciliationEntity } from '#lib/alarms/entities';
import { MaintenanceReleaseEntity, RepeatMarkerEntity } from '#lib/notify/entities';

// Markers of work done: each written after the deliveries it stands for, so a crash replans them and stores nothing twice.

/** The last repeat slot whose digest a watcher's deliveries carry (docs/guide/rules/notify.md "Repeat notifications in slots of the repeat interval"). */
export const repeats = {
  lastSlot: async (watcherId: string): Promise<number | undefined> => (await RepeatMarkerEntity.find(watcherId, { consistent: true })) ?? undefined,
  done: async (watcherId: string, slot: number, at: string): Promise<void> => void (await RepeatMarkerEntity.put(watcherId, { watcherId, slot, at })),
};

/** The end (ms) of a maintenance window's last opening whose held alarms were told (docs/guide/rules/maintenance.md "A closing maintenance window tells what it held once, found from its schedule and a marker"). */
export const releases = {
  lastClosed: async (windowId: string): Promise<number | undefined> => (await MaintenanceReleaseEntity.find(windowId, { consistent: true })) ?? undefined,
  closed: async (windowId: string, closedAt: number, at: string): Promise<void> => void (await MaintenanceReleaseEntity.put(windowId, { windowId, closedAt, at })),
};

/** When the alarm engine last finished a full reconciliation pass (epoch ms). */
export const reconciliation = {
  lastAt: async (): Promise<number> => (await ReconciliationEntity.find(undefined, { consistent: true })) ?? 0,
  done: async (at: number): Promise<void> => void (await ReconciliationEntity.put(undefined, { lastFullRunAt: at })),
};
