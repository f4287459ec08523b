import { randomUUID } from 'node:crypto';
import * as rooms from '#lib/rollups/repository/rooms';
import * as summaries from '#lib/rollups/repository/summaries';
import { roomKey, summaryKey, uniquePlaces, zeroCounts, type Place, type Severity } from '#lib/devices/types';
import { mapConcurrent, writesInFlight } from '#lib/shared/concurrency';
import { expectedSummaries, summaryDeltas, summaryPlacesOf } from './pure/summary';
import { recomputeRoomChange, shiftRoom, type BeforeWrite, type RoomChange } from './rooms';

/**
 * Recomputes each room once (however many of its devices changed), then moves the summaries
 * of their scopes by exactly the change: the one seam where every room change of a run passes
 * (the answer is what changed, for whoever reacts to room changes).
 */
export const recountRooms = async (places: Iterable<Place>, beforeWrite?: BeforeWrite): Promise<RoomChange[]> => {
  const unique = uniquePlaces(places);
  return withSummaries(unique, (changes) =>
    mapConcurrent(unique, writesInFlight(), async (place) => {
      changes.push(await recomputeRoomChange(place, beforeWrite));
    }),
  );
};

/** Marks the summaries of the rooms' scopes, runs the room writes, then moves the summaries by what they changed. */
const withSummaries = async (places: readonly Place[], write: (changes: RoomChange[]) => Promise<unknown>): Promise<RoomChange[]> => {
  if (places.length === 0) return [];
  const scopes = [...new Map(places.flatMap(summaryPlacesOf).map((scope) => [summaryKey(scope), scope])).values()];
  const runId = randomUUID();
  const startedAt = Date.now();
  await summaries.begin(runId, startedAt, scopes);
  const changes: RoomChange[] = [];
  try {
    await write(changes);
  } finally {
    // the rooms written so far are counted even when a later one failed
    await summaries.apply(runId, startedAt, scopes, summaryDeltas(changes));
  }
  return changes;
};

/**
 * Moves each room by the severity shifts of its devices (one update per room, no read of its
 * devices), then the summaries of their scopes by exactly the change: the alarm engine's way to
 * keep room statuses right in O(changed devices).
 */
export const shiftRooms = async (shifts: Iterable<{ place: Place; from?: Severity; to?: Severity }>): Promise<RoomChange[]> => {
  const byRoom = new Map<string, { place: Place; moves: { from?: Severity; to?: Severity }[] }>();
  for (const { place, from, to } of shifts) {
    const entry = byRoom.get(roomKey(place)) ?? { place, moves: [] };
    entry.moves.push({ ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) });
    byRoom.set(roomKey(place), entry);
  }
  return withSummaries(
    [...byRoom.values()].map((entry) => entry.place),
    async (changes) => {
      const stored = new Map((await rooms.items([...byRoom.values()].map((entry) => entry.place))).map((room) => [roomKey(room.aggregate), room]));
      await mapConcurrent([...byRoom.values()], writesInFlight(), async ({ place, moves }) => {
        changes.push(await shiftRoom(place, stored.get(roomKey(place)), moves));
      });
    },
  );
};

/**
 * Makes every summary equal the counts of the room aggregates (a reconciliation step, O(rooms)):
 * summaries first, then the rooms, each summary written only under the version it was read at.
 * Answers how many summaries it corrected.
 */
export const healSummaries = async (): Promise<number> => {
  const known = await summaries.places();
  const before = await summaries.read(known);
  const expected = expectedSummaries(await rooms.inPlace({}, { consistent: true }));
  const storedKeys = new Set(known.map(summaryKey));
  const missing = [...expected.values()].filter(({ scope }) => !storedKeys.has(summaryKey(scope))).map(({ scope }) => scope);
  // scopes with no summary yet: only created here if still absent (one a run created meanwhile waits for the next heal)
  const added = (await summaries.read(missing)).filter((stored) => stored.version === 0);
  let healed = 0;
  for (const stored of [...before, ...added]) {
    if (await summaries.heal(stored, expected.get(summaryKey(stored.scope))?.counts ?? zeroCounts())) healed++;
  }
  return healed;
};
