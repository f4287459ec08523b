import { MaintenanceRelease } from '#lib/store/entities/notify';

/*
 * One marker per maintenance window whose closing was told (issue 28 item 1): the end (ms) of the
 * last opening whose still-firing alarms were notified. Written after the digests' deliveries
 * (whose ids the closing fixes), so a crash in between makes the next run plan the same
 * deliveries again, which stores nothing twice (as lib/db/repeats.ts).
 */
export const lastClosed = async (windowId: string): Promise<number | undefined> => (await MaintenanceRelease.find(windowId, { consistent: true })) ?? undefined;

export const closed = async (windowId: string, closedAt: number, at: string): Promise<void> => {
  await MaintenanceRelease.put(windowId, { windowId, closedAt, at });
};
