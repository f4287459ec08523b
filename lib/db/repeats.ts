import { RepeatMarker } from '#lib/store/entities/notify';

/*
 * One marker per watcher with repeat notifications: the last repeat slot whose digest was
 * stored. Written after the digest's deliveries (whose ids the slot fixes), so a crash in
 * between makes the next run plan the same deliveries again, which stores nothing twice.
 */
export const lastSlot = async (watcherId: string): Promise<number | undefined> => (await RepeatMarker.find(watcherId, { consistent: true })) ?? undefined;

export const done = async (watcherId: string, slot: number, at: string): Promise<void> => {
  await RepeatMarker.put(watcherId, { watcherId, slot, at });
};
