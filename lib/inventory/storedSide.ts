import { devices } from '#lib/devices/repository/devices';
import { syncFingerprints, type FingerprintBucket } from '#lib/inventory/repository/fingerprints';
import * as rooms from '#lib/rollups/repository/rooms';
import { roomKey, type Place, type ProviderDevice, type RoomAggregate, type StoredDevice } from '#lib/devices/types';
import { expectedAggregates, staleRooms } from '#lib/rollups/pure/aggregates';
import { mapConcurrent } from '#lib/shared/concurrency';
import { placeOfRoom, roomId } from '#lib/store/placeKeys';
import { bucketHash, differingRooms, roomFingerprint, sameEntries } from './pure/fingerprint';

/*
 * What a sync compares the provider's list with. The provider answers the whole fleet, so its
 * list is read in full; the stored side is read in full only by a full sync (the first, after a
 * change of SYNC_BUCKETS, and every SYNC_FULL_SECONDS): otherwise only the rooms whose
 * fingerprint differs from the provider's (lib/inventory/repository/fingerprints.ts).
 */

/** Seconds between syncs that compare the whole stored inventory (SYNC_FULL_SECONDS, default 3600). */
const fullSyncMs = (): number => {
  const value = Number(process.env.SYNC_FULL_SECONDS ?? 3600);
  return (Number.isFinite(value) && value >= 0 ? value : 3600) * 1000;
};

/** The fingerprint of a held room: equal to no listing's, so the room is compared on every sync while held. */
const HELD = '!held';

interface StoredSide {
  /** The whole stored inventory was read. */
  full: boolean;
  /** Rooms whose devices were read (all of them for a full sync). */
  roomsRead: number;
  /** Stored devices the comparison covers, devices reported unreadably left out. */
  stored: StoredDevice[];
  /** Stored devices the provider reported unreadably, or whose provider failed: kept as they are. */
  held: StoredDevice[];
  /** Provider devices the comparison covers (last listing of a serial number wins). */
  incoming: ProviderDevice[];
  /**
   * Rooms compared whose stored aggregate disagrees with their stored devices as read, before
   * this sync writes anything: left behind by an interrupted run (recount them, heal the summaries).
   */
  drifted: Place[];
  /** Keeps these stored devices as they are: their rooms' fingerprints are not recorded (compared again next time). */
  hold(devices: readonly Pick<StoredDevice, 'details'>[]): void;
  /** Before the sync writes devices: marks the rooms it will write, so a run cut short is seen by the next. */
  markWrites(written: readonly Pick<StoredDevice, 'details'>[]): Promise<void>;
  /** After the sync's writes: records the fingerprints of what is now stored. */
  commit(): Promise<void>;
}

/** The provider's rooms by bucket: room identity -> fingerprint. */
const providerBuckets = (fleet: readonly ProviderDevice[]) => {
  const byRoom = new Map<string, { bucket: number; members: ProviderDevice[] }>();
  for (const device of fleet) {
    const room = roomId(device.details);
    const bucket = syncFingerprints.bucketOfRoom(room);
    const entry = byRoom.get(room) ?? { bucket, members: [] };
    entry.members.push(device);
    byRoom.set(room, entry);
  }
  const buckets = new Map<number, Map<string, string>>();
  for (const [room, { bucket, members }] of byRoom) buckets.set(bucket, (buckets.get(bucket) ?? new Map()).set(room, roomFingerprint(members)));
  return buckets;
};

interface StoredSideOptions {
  /** Stored devices to hold like unreadable ones (their provider's listing failed). */
  holds?: (device: StoredDevice) => boolean;
  /** Read the whole stored inventory whatever the fingerprints say. */
  full?: boolean;
}

export const readStoredSide = async (listed: readonly ProviderDevice[], unreadable: ReadonlySet<string>, options: StoredSideOptions = {}): Promise<StoredSide> => {
  const startedAt = Date.now();
  const latest = [...new Map(listed.map((device) => [device.devicesn, device])).values()];
  const wanted = providerBuckets(latest);
  const count = syncFingerprints.bucketCount();
  // rooms another writer marked: compared whatever their fingerprints say, read before any device
  const [top, dirty] = await Promise.all([syncFingerprints.top(), syncFingerprints.dirtyRooms()]);
  const full = options.full === true || !top || top.buckets !== count || startedAt - top.fullAt >= fullSyncMs();
  const hashes = top?.hashes ?? new Map<number, string>();
  const entriesOf = (bucket: number) => wanted.get(bucket) ?? new Map<string, string>();

  let read: Map<number, FingerprintBucket>;
  let stored: StoredDevice[];
  let aggregates: RoomAggregate[];
  let roomsRead: number;
  let incoming: ProviderDevice[];
  let aggregatePlaces: Place[] = [];
  if (full) {
    read = await syncFingerprints.allBuckets();
    for (let bucket = 0; bucket < count; bucket++) if (!read.has(bucket)) read.set(bucket, { bucket, version: 0, rooms: new Map() });
    [stored, aggregates] = await Promise.all([devices.index(), rooms.inPlace({})]);
    roomsRead = aggregates.length;
    incoming = latest;
  } else {
    const differing = Array.from({ length: count }, (_, bucket) => bucket).filter((bucket) => bucketHash(entriesOf(bucket)) !== hashes.get(bucket));
    read = await syncFingerprints.buckets(differing);
    const changed = new Set(
      [...read.values()].flatMap(({ bucket, rooms: storedEntries }) =>
        // a bucket a sync marked and did not record (cut short): every room of it is compared
        top.whole.has(bucket) ? [...new Set([...entriesOf(bucket).keys(), ...storedEntries.keys()])] : differingRooms(entriesOf(bucket), storedEntries),
      ),
    );
    for (const room of dirty.keys()) changed.add(room);
    // a room holding a device the provider reported unreadably is compared on every sync
    for (const device of await devices.find([...unreadable])) changed.add(roomId(device.details));
    const places = [...changed].map(placeOfRoom);
    const inRooms = (await mapConcurrent(places, 16, (place) => devices.inRoom(place))).flat();
    const known = new Set(inRooms.map((device) => device.devicesn));
    incoming = latest.filter((device) => changed.has(roomId(device.details)) || known.has(device.devicesn));
    // a device new to the rooms read may be stored in a room not read (moved): found by serial number
    const elsewhere = await devices.find(incoming.filter((device) => !known.has(device.devicesn)).map((device) => device.devicesn));
    stored = [...inRooms, ...elsewhere];
    aggregates = (await rooms.items(places)).map((room) => room.aggregate);
    aggregatePlaces = places;
    roomsRead = places.length;
  }
  const isHeld = (device: StoredDevice) => unreadable.has(device.devicesn) || options.holds?.(device) === true;
  const held = stored.filter(isHeld);
  const heldSerials = new Set(held.map((device) => device.devicesn));
  // drift: what the rooms compared hold before this sync's writes, against their aggregates
  const expected = expectedAggregates(stored);
  if (!full) {
    const compared = new Set(aggregatePlaces.map(roomKey));
    for (const key of [...expected.keys()]) if (!compared.has(key)) expected.delete(key);
  }
  const drifted = staleRooms(aggregates, expected);
  const heldRooms = new Set(held.map((device) => roomId(device.details)));

  // buckets the sync marked before its writes, and the mark it left on their hashes
  const marked = new Set<number>();
  let mark: string | undefined;
  const markWrites = async (written: readonly Pick<StoredDevice, 'details'>[]) => {
    const buckets = [...new Set(written.map(({ details }) => syncFingerprints.bucketOfRoom(roomId(details))))];
    if (buckets.length === 0) return;
    mark = await syncFingerprints.markForSync(buckets);
    for (const bucket of buckets) marked.add(bucket);
  };

  const commit = async () => {
    const changes: { bucket: number; hash?: string; was?: string }[] = [];
    const heldByBucket = new Map<number, string[]>();
    for (const room of heldRooms) heldByBucket.set(syncFingerprints.bucketOfRoom(room), [...(heldByBucket.get(syncFingerprints.bucketOfRoom(room)) ?? []), room]);
    const missedBuckets: number[] = [];
    await mapConcurrent([...read.values()], 16, async (bucket) => {
      // a held room is recorded as no listing can be: compared again by every sync until it is not held
      const entries = new Map([...entriesOf(bucket.bucket)].filter(([room]) => !heldRooms.has(room)));
      for (const room of heldByBucket.get(bucket.bucket) ?? []) entries.set(room, HELD);
      if (!sameEntries(entries, bucket.rooms) && !(await syncFingerprints.writeBucket(bucket, entries))) {
        missedBuckets.push(bucket.bucket);
        return;
      }
      const was = marked.has(bucket.bucket) && top ? mark : hashes.get(bucket.bucket);
      const hash = bucketHash(entries);
      if (hash !== was) changes.push({ bucket: bucket.bucket, ...(hash === undefined ? {} : { hash }), ...(was === undefined ? {} : { was }) });
    });
    const notSet = await syncFingerprints.writeHashes(changes, full ? { at: startedAt } : undefined);
    // the marks read are dealt with, except in buckets whose fingerprints this sync could not record
    const unrecorded = new Set([...missedBuckets, ...notSet]);
    await syncFingerprints.clearDirty(new Map([...dirty].filter(([room]) => !unrecorded.has(syncFingerprints.bucketOfRoom(room)))));
  };

  const hold = (devices: readonly Pick<StoredDevice, 'details'>[]) => {
    for (const device of devices) heldRooms.add(roomId(device.details));
  };
  return {
    full,
    roomsRead,
    stored: stored.filter((device) => !isHeld(device)),
    held,
    // a serial number held for a failed provider is not taken over by another provider meanwhile
    incoming: incoming.filter((device) => !heldSerials.has(device.devicesn)),
    drifted,
    hold,
    markWrites,
    commit,
  };
};

