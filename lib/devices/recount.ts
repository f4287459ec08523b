import { randomUUID } from 'node:crypto';
import { rooms, type RoomChange } from '#lib/db/rooms';
import { summaries } from '#lib/db/summaries';
import { mapConcurrent } from './concurrent';
import { expectedSummaries, summaryDeltas, summaryKey, summaryScopesOf, uniquePlaces, zeroCounts } from './summary';
import type { Place } from './types';

/**
 * Writes in flight for the background engines (sync, evaluation): DynamoDB serves thousands
 * of writes a second per table, spread over partitions; 8 left it idle. WRITES_IN_FLIGHT overrides.
 */
export const writesInFlight = (): number => {
  const value = Number(process.env.WRITES_IN_FLIGHT ?? 64);
  return Number.isInteger(value) && value > 0 ? value : 64;
};

/**
 * Recomputes each room once (however many of its devices changed), then moves the summaries
 * of their scopes by exactly the change: the one seam where every room change of a run passes
 * (the answer is what changed, for whoever reacts to room changes).
 */
export const recountRooms = async (places: Iterable<Place>): Promise<RoomChange[]> => {
  const unique = uniquePlaces(places);
  if (unique.length === 0) return [];
  const scopes = [...new Map(unique.flatMap(summaryScopesOf).map((scope) => [summaryKey(scope), scope])).values()];
  const runId = randomUUID();
  const startedAt = Date.now();
  await summaries.begin(runId, startedAt, scopes);
  const changes: RoomChange[] = [];
  try {
    await mapConcurrent(unique, writesInFlight(), async (place) => {
      changes.push(await rooms.recomputeChange(place));
    });
  } finally {
    // the rooms written so far are counted even when a later one failed
    await summaries.apply(runId, startedAt, scopes, summaryDeltas(changes));
  }
  return changes;
};

/**
 * Makes every summary equal the counts of the room aggregates (a reconciliation step, O(rooms)):
 * summaries first, then the rooms, each summary written only under the version it was read at.
 * Answers how many summaries it corrected.
 */
export const healSummaries = async (): Promise<number> => {
  const known = await summaries.scopes();
  const before = await summaries.read(known);
  const expected = expectedSummaries(await rooms.inScope({}));
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
