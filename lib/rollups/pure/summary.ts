import { COUNT_FIELDS, summaryKey, zeroCounts, type Counts, type Place, type RoomAggregate, type RoomStatus, type SummaryPlace } from '#lib/devices/types';

/*
 * Summaries: the counts of every room aggregate within a scope (everything, one region, one
 * region + location), kept as one item each so that a count for those scopes is one read.
 */

/** What one room adds to every summary it belongs to (nothing for an absent room). */
const countsOfRoom = (room: Pick<RoomAggregate, 'deviceCount' | 'online' | 'offline' | 'roomStatus'> | undefined): Counts => {
  const counts = zeroCounts();
  if (!room || room.deviceCount === 0) return counts;
  counts.deviceCount = room.deviceCount;
  counts.online = room.online;
  counts.offline = room.offline;
  counts.rooms = 1;
  counts[room.roomStatus as RoomStatus] = 1;
  return counts;
};

export const addCounts = (into: Counts, more: Counts, sign = 1): Counts => {
  for (const field of COUNT_FIELDS) into[field] += sign * more[field];
  return into;
};

const isZero = (counts: Counts): boolean => COUNT_FIELDS.every((field) => counts[field] === 0);

/** The counts of a list of rooms (the rooms in any scope). */
export const countRooms = (rooms: readonly RoomAggregate[]): Counts => rooms.reduce((total, room) => addCounts(total, countsOfRoom(room)), zeroCounts());

/** The summary scopes a room belongs to, widest first. */
export const summaryPlacesOf = (place: Place): SummaryPlace[] => [{}, { region: place.region }, { region: place.region, location: place.location }];

/** A scope served by a summary, or undefined when the scope must read room aggregates. */
export const summaryPlaceFor = (scope: Partial<Place>): SummaryPlace | undefined => {
  if (scope.room !== undefined) return undefined;
  if (scope.region === undefined) return scope.location === undefined ? {} : undefined;
  return scope.location === undefined ? { region: scope.region } : { region: scope.region, location: scope.location };
};

/** The change of every summary scope from a set of room changes (before -> after). */
export const summaryDeltas = (changes: readonly { place: Place; before?: RoomAggregate; after?: RoomAggregate }[]): Map<string, { scope: SummaryPlace; delta: Counts }> => {
  const deltas = new Map<string, { scope: SummaryPlace; delta: Counts }>();
  for (const { place, before, after } of changes) {
    const delta = addCounts(countsOfRoom(after), countsOfRoom(before), -1);
    if (isZero(delta)) continue;
    for (const scope of summaryPlacesOf(place)) {
      const key = summaryKey(scope);
      const entry = deltas.get(key) ?? { scope, delta: zeroCounts() };
      addCounts(entry.delta, delta);
      deltas.set(key, entry);
    }
  }
  return deltas;
};

/** The summary every scope should hold for these rooms (what a heal compares against). */
export const expectedSummaries = (rooms: readonly RoomAggregate[]): Map<string, { scope: SummaryPlace; counts: Counts }> => {
  const expected = new Map<string, { scope: SummaryPlace; counts: Counts }>();
  expected.set(summaryKey({}), { scope: {}, counts: zeroCounts() });
  for (const room of rooms) {
    for (const scope of summaryPlacesOf(room)) {
      const key = summaryKey(scope);
      const entry = expected.get(key) ?? { scope, counts: zeroCounts() };
      addCounts(entry.counts, countsOfRoom(room));
      expected.set(key, entry);
    }
  }
  return expected;
};
