import type { ClearReason } from '#lib/alarms/types';
import type { RoomAggregate } from '#lib/devices/types';
import type { AlarmView } from '#lib/alarms/pure/view';

// The one seam between a stored change and its listeners (lib/live/push.ts): announced after the write landed (docs/adr/0102).

/** An alarm event as dashboards see it: the alarm as GET /alarms answers it, plus how it ended. */
export interface AlarmChange {
  event: 'raised' | 'cleared' | 'acknowledged' | 'silenced' | 'unsilenced';
  alarm: AlarmView & { clearedAt?: string; clearReason?: ClearReason; silencedBy?: string[]; silencedByCount?: number; inMaintenance?: string[] };
}

export type StoredChange =
  /** A room aggregate was written; `deviceCount: 0` means the room has no devices any more. */
  | { kind: 'room'; at: string; room: RoomAggregate }
  | ({ kind: 'alarm'; at: string } & AlarmChange);

type ChangeListener = (change: StoredChange) => Promise<void>;

const listeners = new Set<ChangeListener>();

/** Registers a listener for every change stored by this process; returns its removal. */
export const onStored = (listener: ChangeListener): (() => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Whether anybody listens: announcements that cost reads to assemble (silences) are skipped when nobody does. */
export const listening = (): boolean => listeners.size > 0;

/** Tells every listener of a stored change and waits (a Lambda may freeze after); a listener's failure never fails the write. */
export const announceStored = async (change: StoredChange): Promise<void> => {
  if (listeners.size === 0) return;
  await Promise.allSettled([...listeners].map((listener) => listener(change)));
};
