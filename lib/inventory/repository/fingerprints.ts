import { randomUUID } from 'node:crypto';
import type { Place } from '#lib/devices/types';
import { mapConcurrent } from '#lib/shared/concurrency';
import { hashAttribute, DIRTY_ROOMS, DirtyRoomEntity, FingerprintBucketEntity as Buckets, FingerprintTopEntity as Top, FINGERPRINTS, ROOM_ATTRIBUTE } from '#lib/inventory/entities';
import { roomId } from '#lib/devices/entities';
import { and, expr, type Expr } from '#lib/store/expression';
import { bucketOf, queryAll, queryShards } from '#lib/store/query';
import { batchGet, batchWrite, chunked, asRead, EXISTS, putRequest } from '#lib/store/table';

// Sync fingerprints in B buckets and a top item of bucket hashes, dirty marks beside them (docs/adr/0138-sync-fingerprints.md and docs/guide/rules/alarms.md "Dirty marks are items of their own").
/** A hash the sync replaced before writing into the bucket: every room of it is to be compared. */
const WHOLE = 'whole:';
const IN_FLIGHT = 16;
/** Entries per UpdateItem: expressions stay far below DynamoDB's 4 KB. */
const CHUNK = 100;

/** A bucket's room identity -> fingerprint, and its `version` (0 when the item does not exist). */
export type FingerprintBucket = ReturnType<typeof Buckets.fromItem>;

export const syncFingerprints = {
  /** B: SYNC_BUCKETS (default 512); a change makes the next sync compare the whole inventory. */
  bucketCount(): number {
    const count = Number(process.env.SYNC_BUCKETS ?? 512);
    return Number.isInteger(count) && count > 0 ? count : 512;
  },

  bucketOfRoom(room: string): number {
    return bucketOf(room, syncFingerprints.bucketCount());
  },

  /** `whole`: the buckets a sync marked before its writes and did not record (compare every room of them). */
  async top() {
    const top = await Top.find(undefined, { consistent: true });
    return top && { ...top, whole: new Set([...top.hashes].filter(([, hash]) => hash.startsWith(WHOLE)).map(([bucket]) => bucket)) };
  },

  /** The given buckets, read consistently (absent ones empty, version 0). */
  async buckets(wanted: readonly number[]): Promise<Map<number, FingerprintBucket>> {
    const found = new Map<number, FingerprintBucket>(wanted.map((bucket) => [bucket, { bucket, version: 0, rooms: new Map() }]));
    for (const bucket of (await batchGet(wanted.map(Buckets.key))).map(Buckets.fromItem)) found.set(bucket.bucket, bucket);
    return found;
  },

  /** Every bucket item (one Query, consistent): a full sync's view. */
  async allBuckets(): Promise<Map<number, FingerprintBucket>> {
    const items = await queryAll({ pk: FINGERPRINTS, sk: expr('begins_with(#sk, :b)', { b: 'B#' }), consistent: true });
    return new Map(items.map(Buckets.fromItem).map((bucket) => [bucket.bucket, bucket]));
  },

  /** Replaces a bucket's room fingerprints, under the version it was read at; false when someone marked it meanwhile. */
  async writeBucket(read: FingerprintBucket, rooms: ReadonlyMap<string, string>): Promise<boolean> {
    const fields = { version: read.version + 1, ...Object.fromEntries([...rooms].map(([room, fp]) => [`${ROOM_ATTRIBUTE}${room}`, fp])) };
    return Buckets.put(read.bucket, fields, asRead(read.version));
  },

  /** Sets bucket hashes (undefined: removes) where the top still holds `was`; answers the buckets not set. `full`: a whole-inventory sync. */
  async writeHashes(changes: readonly { bucket: number; hash?: string; was?: string }[], full?: { at: number }): Promise<number[]> {
    const missed: number[] = [];
    const batches = chunked(changes, CHUNK);
    if (full && batches.length === 0) batches.push([]);
    for (const batch of batches) {
      const hashes = { ...Object.fromEntries(batch.map(({ bucket, hash }) => [hashAttribute(bucket), hash])), buckets: syncFingerprints.bucketCount(), type: Top.type };
      // each bucket's hash a name of its own (`#h<i>`), as read
      const asRead = batch.map(({ bucket, was }, i): Expr => (was === undefined ? expr(`attribute_not_exists(#h${i})`, {}, { [`#h${i}`]: hashAttribute(bucket) }) : expr(`#h${i} = :w${i}`, { [`w${i}`]: was }, { [`#h${i}`]: hashAttribute(bucket) })));
      const ok = await Top.update(undefined, { set: { ...hashes, ...(full ? { fullAt: full.at } : {}) } }, and(...asRead));
      if (!ok) missed.push(...batch.map((change) => change.bucket));
    }
    return missed;
  },

  /** Marks rooms dirty for the next sync: every device writer but the sync, before and after its write. */
  async invalidate(places: readonly Place[]): Promise<void> {
    const mark = randomUUID();
    const rooms = [...new Set(places.map(roomId))];
    await batchWrite(rooms.map((room) => putRequest(DirtyRoomEntity.item(room, { mark }))), { inFlight: IN_FLIGHT });
  },

  /** The rooms marked dirty, each with its mark (read consistently, every shard). */
  async dirtyRooms(): Promise<Map<string, string>> {
    return new Map((await queryShards(DIRTY_ROOMS, { consistent: true })).map(DirtyRoomEntity.fromItem).map(({ room, mark }) => [room, mark]));
  },

  /** Removes the marks a sync read and dealt with, each only if it still holds the value read. */
  async clearDirty(marks: ReadonlyMap<string, string>): Promise<void> {
    await mapConcurrent([...marks], IN_FLIGHT, ([room, mark]) => DirtyRoomEntity.remove(room, expr('#mark = :mark', { mark })));
  },

  /** The sync's mark before writing into these buckets (`whole` in `top()`); answers the mark its hash write expects. */
  async markForSync(buckets: readonly number[]): Promise<string> {
    const mark = `${WHOLE}${randomUUID()}`;
    // a value no sync computes, set only where a top item exists
    for (const batch of chunked(buckets, CHUNK)) await Top.update(undefined, { set: Object.fromEntries(batch.map((bucket) => [hashAttribute(bucket), mark])) }, EXISTS);
    return mark;
  },
};
