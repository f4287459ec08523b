import type { HeldRemovals, ProviderStatus } from '#lib/inventory/pure/providerStatus';
import { docRow, entity, documented } from '#lib/store/entity';
import { shardKey } from '#lib/store/query';
import type { Place } from '#lib/shared/place';

/** A stored place map, or undefined when the item holds none (entries written before places were kept). */
const placeOf = (value: unknown): Place | undefined => {
  if (!value || typeof value !== 'object') return undefined;
  const { region, location, room } = value as Record<string, unknown>;
  return typeof region === 'string' && typeof location === 'string' && typeof room === 'string' ? { region, location, room } : undefined;
};

export const PROVIDERS = 'PROVIDER';
/**
 * The held removals' listing hash is stored under `digest`, its name from before "digest" meant
 * only a notification: the code says `listingHash`, the items keep their attribute, so stored
 * statuses need no migration.
 */
type StoredHeldRemovals = Omit<HeldRemovals, 'listingHash'> & { digest: string };
export const ProviderEntity = /* @__PURE__ */ entity({
  type: 'ProviderStatus',
  key: (name: string) => ({ PK: PROVIDERS, SK: `PROVIDER#${name}` }),
  fromItem: (item): ProviderStatus => {
    const { PK: _pk, SK: _sk, type: _type, heldRemovals, ...status } = item;
    if (!heldRemovals) return status as unknown as ProviderStatus;
    const { digest, ...held } = heldRemovals as StoredHeldRemovals;
    return { ...(status as unknown as ProviderStatus), heldRemovals: { ...held, listingHash: digest } };
  },
});
/** A provider's status as its item stores it (the inverse of `ProviderEntity.fromItem`). */
export const providerStatusItem = ({ heldRemovals, ...status }: ProviderStatus): Omit<ProviderStatus, 'heldRemovals'> & { heldRemovals?: StoredHeldRemovals } => {
  if (!heldRemovals) return status;
  const { listingHash, ...held } = heldRemovals;
  return { ...status, heldRemovals: { ...held, digest: listingHash } };
};
dataModel: docRow(ProviderEntity, { section: 'Devices, room aggregates and lookups', name: 'Provider status', PK: '`PROVIDER`', SK: '`PROVIDER#<name>`',
  notes: 'one per device provider, written whole by the sync after each run: `lastSyncAt, lastSuccessAt, lastError {at, message, status?, trackingId?}, failingSince, staleFlaggedFor, devices, skipped {reason: n}, adjusted {change: n} (fields cut, cleaned or renamed: see "Vendor fields and their bounds"), duplicates, requests, throttledWaits, waitedMs, heldRemovals {count, seen, digest (a hash of the serials it would remove), since}, pagingFailures, backoffUntil`' });
/** What a provider's status polls came to (`GET /providers`): its own item, so the sync's whole write of the provider status never races it. */
export const POLL_COUNTS = 'PROVIDERPOLLS';
export const PollCountsEntity = /* @__PURE__ */ entity({
  type: 'ProviderPollCounts',
  key: (vendor: string) => ({ PK: POLL_COUNTS, SK: vendor }),
  fromItem: (item) => ({
    vendor: String(item.SK),
    count: Number(item.polls ?? 0),
    failed: Number(item.failed ?? 0),
    requests: Number(item.requests ?? 0),
    changes: Number(item.changes ?? 0),
    lastAt: (item.lastPollAt as string | undefined) ?? null,
    lastRequests: Number(item.lastRequests ?? 0),
    lastError: (item.lastError as string | undefined) ?? null,
  }),
});
dataModel: docRow(PollCountsEntity, { section: 'Devices, room aggregates and lookups', name: 'Provider poll counts', PK: '`PROVIDERPOLLS`', SK: '`<provider>`',
  notes: '`polls, failed, requests, changes` (ADD counters: status polls run, failed, their vendor requests, the connectivity changes they applied), `lastPollAt, lastRequests, lastError` (the last poll\'s; `lastError` removed by a success)' });


const fingerprints = 'Sync fingerprints';
export const FINGERPRINTS = 'SYNCFP';
/** A room's fingerprint is the attribute `r:<room>` of its bucket. */
export const ROOM_ATTRIBUTE = 'r:';
export const FingerprintBucketEntity = /* @__PURE__ */ entity({
  type: 'SyncFingerprints',
  key: (bucket: number) => ({ PK: FINGERPRINTS, SK: `B#${bucket}` }),
  fromItem: (item) => ({
    bucket: Number(String(item.SK).slice(2)),
    version: Number(item.version ?? 0),
    rooms: new Map(Object.entries(item).flatMap(([name, value]) => (name.startsWith(ROOM_ATTRIBUTE) ? [[name.slice(ROOM_ATTRIBUTE.length), String(value)] as const] : []))),
  }),
});
dataModel: docRow(FingerprintBucketEntity, { section: fingerprints, name: 'Bucket', PK: '`SYNCFP`', SK: '`B#<n>`',
  notes: '`r:<room>` = fingerprint (`dirty` in items written before dirty marks had their own items: compared like any difference); `version`' });
export const FingerprintTopEntity = /* @__PURE__ */ entity({
  type: 'SyncFingerprintTop',
  key: (_: void) => ({ PK: FINGERPRINTS, SK: 'TOP' }),
  fromItem: (item) => ({
    buckets: Number(item.buckets ?? 0),
    fullAt: Number(item.fullAt ?? 0),
    hashes: new Map(Object.entries(item).flatMap(([name, value]) => (/^b\d+$/.test(name) ? [[Number(name.slice(1)), String(value)] as const] : []))),
  }),
});
dataModel: docRow(FingerprintTopEntity, { section: fingerprints, name: 'Top', PK: '`SYNCFP`', SK: '`TOP`', notes: '`b<n>` = bucket hash, or `whole:<uuid>` (a sync is writing into it); `buckets` (B); `fullAt` (epoch ms of the last full sync)' });
/** A bucket's hash is the attribute `b<n>` of the top item. */
export const hashAttribute = (bucket: number) => `b${bucket}`;
dataModel: documented({ section: fingerprints, name: 'Held room (inside a bucket)', PK: '', SK: '',
  notes: "`r:<room>` = `!held`: the room holds devices the sync keeps as they are (their provider failed, their record was unreadable, or the removal guard holds their removal); equal to no listing's fingerprint, so every sync compares the room again until nothing in it is held" });
/** Rooms written by someone other than the sync since the sync last compared them, sharded by room. */
export const DIRTY_ROOMS = 'SYNCFP#DIRTY';
export const DirtyRoomEntity = /* @__PURE__ */ entity({
  type: 'SyncDirtyRoom',
  key: (room: string) => ({ PK: shardKey(DIRTY_ROOMS, room), SK: room }),
  fromItem: (item) => ({ room: String(item.SK), mark: String(item.mark) }),
});
dataModel: docRow(DirtyRoomEntity, {
  section: fingerprints, name: 'Dirty room', PK: '`SYNCFP#DIRTY#<shard(room)>`', SK: '`<room>` (the room identity alone, as in its aggregate: whatever room fits a key can be marked)',
  notes: '`mark` (a fresh UUID per write): another writer wrote devices of the room since the sync last compared it',
});

const vendorEvents = 'Vendor events';
/** How long a received vendor event is kept (it is applied at once; the copy serves duplicates and the next sync). */
export const VENDOR_EVENT_DAYS = 7;
/**
 * One event a vendor pushed (Zoom's webhooks), stored before it is acknowledged. Keyed by the
 * room it is about and the hash of its body, so a retried delivery finds its first copy.
 */
export const VendorEventEntity = /* @__PURE__ */ entity({
  type: 'VendorEvent',
  key: ({ vendor, room, digest }: { vendor: string; room: string; digest: string }) => ({ PK: `VEVENT#${vendor}#${room}`, SK: `E#${digest}` }),
  fromItem: (item) => ({
    vendor: String(item.vendor),
    room: String(item.room),
    digest: String(item.SK).slice(2),
    eventType: String(item.eventType),
    at: Number(item.at),
    receivedAt: String(item.receivedAt),
    change: item.change as Record<string, unknown>,
    state: String(item.state) as 'received' | 'applied' | 'stale' | 'unknownRoom',
  }),
});
dataModel: docRow(VendorEventEntity, { section: vendorEvents, name: 'Vendor event', PK: '`VEVENT#<vendor>#<vendor room id>`', SK: '`E#<sha-256 of the body, 32 hex>`',
  notes: `\`vendor, room, eventType, at\` (the event's time, epoch ms), \`receivedAt, change\` (what it says: connectivity, alert, inventory), \`state\` (received, applied, stale: older than the room's state, unknownRoom: kept for the next sync), \`expiresAt\` (${VENDOR_EVENT_DAYS} days)` });
/** A vendor room's component, or the room itself (`*`). */
export interface RoomPart {
  vendor: string;
  room: string;
  component?: string;
}
/** The newest event time applied to a vendor room's connectivity (the room's, or one component's): an older event never rewinds it. */
export const VendorRoomEntity = /* @__PURE__ */ entity({
  type: 'VendorRoom',
  key: ({ vendor, room, component }: RoomPart) => ({ PK: `VROOM#${vendor}`, SK: `${room}#${component ?? '*'}` }),
  fromItem: (item) => ({ connected: item.connected as boolean | undefined, connectedAt: Number(item.connectedAt ?? 0), issue: item.issue as string | undefined }),
});
dataModel: docRow(VendorRoomEntity, { section: vendorEvents, name: 'Vendor room', PK: '`VROOM#<vendor>`', SK: '`<vendor room id>#<component>` (`*`: the room itself)',
  notes: '`connected` and `connectedAt` (the event time, epoch ms, of the newest connectivity event applied; written only by a newer one), `issue`' });
/**
 * The vendor room directory: which of our devices a vendor room holds, so that an event about the
 * room (Zoom names its room, and a component: the device's type) reaches the devices it concerns.
 * Written by the sync from what it stores (the devices' `vendorRef`), O(devices changed).
 */
export interface VendorRoomDevice {
  vendor: string;
  room: string;
  devicesn: string;
  /** The device's kind as its vendor names it (Zoom's `device_type`); absent when it gave none. */
  component?: string;
  /**
   * Where the sync stored the device: the receiver reads it there consistently, where the serial
   * index may not list a device the sync has just written yet (absent on older entries).
   */
  place?: Place;
}
export const VendorRoomDeviceEntity = /* @__PURE__ */ entity({
  type: 'VendorRoomDevice',
  key: ({ vendor, room, devicesn }: Pick<VendorRoomDevice, 'vendor' | 'room' | 'devicesn'>) => ({ PK: `VDIR#${vendor}#${room}`, SK: `DEVICE#${devicesn}` }),
  fromItem: (item): VendorRoomDevice => ({
    vendor: String(item.vendor),
    room: String(item.room),
    devicesn: String(item.devicesn),
    ...(typeof item.component === 'string' ? { component: item.component } : {}),
    ...(placeOf(item.place) ? { place: placeOf(item.place)! } : {}),
  }),
});
dataModel: docRow(VendorRoomDeviceEntity, { section: vendorEvents, name: 'Vendor room device', PK: '`VDIR#<vendor>#<vendor room id>`', SK: '`DEVICE#<sn>`',
  notes: '`vendor, room, devicesn`, `component` (the vendor\'s device type, which a room event names), `place {region, location, room}` (where the device is stored: the receiver reads it there consistently); written by the sync for the devices it writes, removed with them' });
/** What a vendor's receiver counted (`GET /providers`): its own item, so the sync's whole write of the provider status never races it. */
export const EVENT_COUNTS = 'PROVIDEREVENTS';
export const EventCountsEntity = /* @__PURE__ */ entity({
  type: 'VendorEventCounts',
  key: (vendor: string) => ({ PK: EVENT_COUNTS, SK: vendor }),
  fromItem: (item) => ({
    vendor: String(item.SK),
    received: Number(item.received ?? 0),
    rejected: Number(item.rejected ?? 0),
    duplicates: Number(item.duplicates ?? 0),
    unknown: Number(item.unknown ?? 0),
    lastEventAt: (item.lastEventAt as string | undefined) ?? null,
  }),
});
dataModel: docRow(EventCountsEntity, { section: vendorEvents, name: 'Vendor event counts', PK: '`PROVIDEREVENTS`', SK: '`<vendor>`',
  notes: '`received, rejected, duplicates, unknown` (ADD counters), `lastEventAt`' });
