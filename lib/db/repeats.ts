import { RepeatMarker } from '#lib/store/entities/notify';

// Repeat markers, written after their digest's deliveries (docs/adr/0092).
export const lastSlot = async (watcherId: string): Promise<number | undefined> => (await RepeatMarker.find(watcherId, { consistent: true })) ?? undefined;

export const done = async (watcherId: string, slot: number, at: string): Promise<void> => {
  await RepeatMarker.put(watcherId, { watcherId, slot, at });
};
