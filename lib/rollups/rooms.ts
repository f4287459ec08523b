import { devices } from '#lib/devices/repository/devices';
import * as rooms from '#lib/rollups/repository/rooms';
import type { Place, RoomAggregate, Severity, SeverityCounts, StoredDevice, StoredRoom } from '#lib/devices/types';
import { ServiceUnavailable } from '#lib/shared/errors';
import { aggregateOf, roomStatusOf, sameAggregate } from './pure/aggregates';

/*
 * A room's aggregate as the domain keeps it: recomputed from its devices, or moved by the
 * severity shifts of its devices; every write is guarded by the version it was read at
 * (lib/rollups/repository/rooms.ts), so a race only means reading again.
 */

/** What runs before a changed aggregate is written (the availability rollup). */
export type BeforeWrite = (aggregate: RoomAggregate) => Promise<void>;

/** One room's aggregate before and after a recompute (absent: the room holds no devices). */
export interface RoomChange {
  place: Place;
  before?: RoomAggregate;
  after?: RoomAggregate;
}

const SEVERITY_LEVELS: Severity[] = [1, 2, 3, 4];
const MAX_ATTEMPTS = 6;

/** How many devices of the room have each worst severity. */
const severityCounts = (members: readonly Pick<StoredDevice, 'alarmSeverity'>[]): SeverityCounts => {
  const counts: SeverityCounts = { 1: 0, 2: 0, 3: 0, 4: 0 };
  for (const { alarmSeverity } of members) if (alarmSeverity !== undefined) counts[alarmSeverity]++;
  return counts;
};
const sameSeverityCounts = (a: SeverityCounts | undefined, b: SeverityCounts) => a !== undefined && SEVERITY_LEVELS.every((level) => a[level] === b[level]);
const statusOfCounts = (counts: SeverityCounts) => roomStatusOf(SEVERITY_LEVELS.filter((level) => counts[level] > 0));

/**
 * Recomputes one room's aggregate from its devices (one consistent Query of its partition) and
 * writes it under its version; removes it when the room has no devices left. Call after every
 * change to a device of the room (sync, refresh, alarm engine). Idempotent. `beforeWrite` runs
 * before a changed aggregate is written (device count 0: removed), so that what it records from
 * the aggregate is never behind a written one (a retry repeats it). Answers the aggregate the
 * write replaced and the one it wrote (equal, or both absent, when nothing changed): exact,
 * since the write is conditioned on what was read.
 */
export const recomputeRoomChange = async (place: Place, beforeWrite?: BeforeWrite): Promise<RoomChange> => {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const current = await rooms.read(place);
    const members = await devices.inRoom(place);
    const aggregate = aggregateOf(place, members);
    const before = current?.aggregate;
    const version = current?.version ?? 0;
    const changed = !before || !sameAggregate(before, aggregate);
    if (beforeWrite && changed) await beforeWrite(aggregate);
    if (aggregate.deviceCount === 0) {
      if (!current || (await rooms.remove(aggregate, version))) return { place, before, after: undefined };
      continue;
    }
    const counts = severityCounts(members);
    if (!changed && sameSeverityCounts(current?.severities, counts)) return { place, before, after: before };
    if (await rooms.write(aggregate, counts, version, changed)) return { place, before, after: aggregate };
  }
  throw new ServiceUnavailable(`room ${place.room} kept changing while its counts were recomputed; retry`);
};

/** As `recomputeRoomChange`, answering the aggregate now stored (undefined: the room holds no devices). */
export const recomputeRoom = async (place: Place, beforeWrite?: BeforeWrite): Promise<RoomAggregate | undefined> =>
  (await recomputeRoomChange(place, beforeWrite)).after;

/**
 * Moves a room read as `stored` by its devices' severity shifts: the new per-severity counts
 * and the status they imply, in one write under the version it was read at, without reading
 * the room's devices. Recomputes it instead where that cannot be done (no counts yet, counts
 * that would go negative, or moved meanwhile).
 */
export const shiftRoom = async (place: Place, stored: StoredRoom | undefined, moves: readonly { from?: Severity; to?: Severity }[]): Promise<RoomChange> => {
  if (!stored?.severities) return recomputeRoomChange(place);
  const counts: SeverityCounts = { ...stored.severities };
  for (const { from, to } of moves) {
    if (from !== undefined) counts[from]--;
    if (to !== undefined) counts[to]++;
  }
  if (SEVERITY_LEVELS.some((level) => counts[level] < 0)) return recomputeRoomChange(place);
  const before = stored.aggregate;
  if (sameSeverityCounts(stored.severities, counts)) return { place, before, after: before };
  const after = { ...before, roomStatus: statusOfCounts(counts) };
  return (await rooms.setSeverities(after, counts, stored.version)) ? { place, before, after } : recomputeRoomChange(place);
};
