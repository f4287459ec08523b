import { EventCountsEntity, EVENT_COUNTS, VENDOR_EVENT_DAYS, VendorEventEntity, VendorRoomEntity, type RoomPart } from '#lib/inventory/entities';
import { collection } from '#lib/store/entity';
import { expr } from '#lib/store/expression';
import { queryAll } from '#lib/store/query';
import { NEW, nowSeconds } from '#lib/store/table';

// Vendor events (pushed by Zoom's webhooks): each stored before it is acknowledged, a room's
// newest applied event time, and the receiver's counters.

export interface StoredEvent {
  vendor: string;
  room: string;
  digest: string;
  eventType: string;
  at: number;
  receivedAt: string;
  change: Record<string, unknown>;
}

/** Stores an event once: false when the same delivery (same room, same body) was stored before. */
export const storeOnce = async (event: StoredEvent): Promise<boolean> =>
  VendorEventEntity.put(
    { vendor: event.vendor, room: event.room, digest: event.digest },
    { ...event, state: 'received', expiresAt: nowSeconds() + VENDOR_EVENT_DAYS * 86_400 },
    NEW,
  );

/** Marks what became of a stored event. */
export const settle = async (event: Pick<StoredEvent, 'vendor' | 'room' | 'digest'>, state: 'applied' | 'stale' | 'unknownRoom'): Promise<void> => {
  await VendorEventEntity.update(event, { set: { state } });
};

/**
 * Sets a room's (or its component's) connectivity from an event of time `at`, unless a newer
 * event set it already: true when applied, false when the stored state is newer (or as new) and stays.
 */
export const applyConnectivity = async (part: RoomPart, change: { connected: boolean; at: number; issue: string }): Promise<boolean> =>
  (await VendorRoomEntity.update(
    part,
    { set: { connected: change.connected, connectedAt: change.at, issue: change.issue } },
    expr('attribute_not_exists(#connectedAt) OR #connectedAt < :at', { at: change.at }),
  )) !== undefined;

/** A room's events kept for the next sync (`unknownRoom`: the directory listed none of its devices yet), unexpired, oldest first. */
export const keptEvents = async (vendor: string, room: string): Promise<(StoredEvent & { state: string })[]> =>
  (
    await queryAll({
      pk: VendorEventEntity.key({ vendor, room, digest: '' }).PK,
      consistent: true,
      filter: expr('#state = :state AND #expiresAt > :now', { state: 'unknownRoom', now: nowSeconds() }),
    })
  )
    .map(VendorEventEntity.fromItem)
    .sort((a, b) => a.at - b.at);

export const roomPart = async (part: RoomPart) => VendorRoomEntity.find(part, { consistent: true });

export type Counter = 'received' | 'rejected' | 'duplicates' | 'unknown';

/** Adds to a vendor's counters (one UpdateItem, ADD: concurrent receivers never lose a count). */
export const count = async (vendor: string, counter: Counter, lastEventAt?: string): Promise<void> => {
  await EventCountsEntity.update(vendor, { add: { [counter]: 1 }, ...(lastEventAt ? { set: { lastEventAt } } : {}) });
};

/** Every vendor's counters. */
export const counts = async () => (await collection(EVENT_COUNTS).all()).map(EventCountsEntity.fromItem);
