import { MaintenanceRelease } from '#lib/store/entities/notify';

// Maintenance release markers, written after their deliveries (docs/adr/0433).
export const lastClosed = async (windowId: string): Promise<number | undefined> => (await MaintenanceRelease.find(windowId, { consistent: true })) ?? undefined;

export const closed = async (windowId: string, closedAt: number, at: string): Promise<void> => {
  await MaintenanceRelease.put(windowId, { windowId, closedAt, at });
};
