import { COUNT_FIELDS, sameCounts, zeroCounts, summaryKey, type Counts, type Place, type SummaryPlace } from '#lib/devices/types';
import { SummaryEntity, SUMMARIES, summaryPlaceId } from '#lib/rollups/entities';
import { queryAll } from '#lib/store/query';
import { asRead, batchGet, type Item } from '#lib/store/table';

// One summary per scope, moved by exact deltas under run marks and healed by recount (docs/adr/0130).
// No transactions: every run moves the same few summaries, so transactions there would conflict with each other (docs/adr/0550).
const STALE_MS = 15 * 60 * 1000;

const countsOf = (item: Item | undefined): Counts => {
  const counts = zeroCounts();
  for (const field of COUNT_FIELDS) counts[field] = Number(item?.[field] ?? 0);
  return counts;
};

/** What every write of a summary sets: its index key and the names of its scope. */
const scopeFields = (scope: SummaryPlace): Item => ({ GSI1PK: SUMMARIES, GSI1SK: summaryPlaceId(scope), ...(scope as Partial<Place>) });

const mark = (runId: string, startedAt: number) => new Set([`${startedAt}:${runId}`]);

/** `inflight`: start times (epoch ms) of the runs that marked it and have not added their change yet. */
const fromItem = (scope: SummaryPlace, item: Item | undefined) => ({
  scope,
  counts: countsOf(item),
  version: Number(item?.version ?? 0),
  inflight: item?.inflight instanceof Set ? [...(item.inflight as Set<string>)].map((entry) => Number(entry.split(':')[0])) : [],
});

/** The counts of one scope: one eventually consistent GetItem (zeros when nothing was ever counted). */
export const get = async (scope: SummaryPlace): Promise<Counts> => countsOf(await SummaryEntity.read(scope, { project: COUNT_FIELDS }));

/** Marks the summaries a run is about to move (before its first room write). */
export const begin = async (runId: string, startedAt: number, scopes: readonly SummaryPlace[]): Promise<void> => {
  await Promise.all(scopes.map((scope) => SummaryEntity.update(scope, { add: { inflight: mark(runId, startedAt), version: 1 }, set: { type: SummaryEntity.type, ...scopeFields(scope) } })));
};

/** Adds the run's change to each summary it marked and drops its mark, in one update each. */
export const apply = async (runId: string, startedAt: number, scopes: readonly SummaryPlace[], deltas: ReadonlyMap<string, { delta: Counts }>): Promise<void> => {
  await Promise.all(
    scopes.map((scope) => {
      const delta = deltas.get(summaryKey(scope))?.delta ?? zeroCounts();
      return SummaryEntity.update(scope, { add: { ...Object.fromEntries(COUNT_FIELDS.map((field) => [field, delta[field]])), version: 1 }, delete: { inflight: mark(runId, startedAt) } });
    }),
  );
};

/** Every summary item there is (discovery for a heal; GSI1 `SUMMARIES`, a few dozen items). */
export const places = async (): Promise<SummaryPlace[]> => (await queryAll({ index: 'GSI1', pk: SUMMARIES })).map(SummaryEntity.fromItem);

/** The stored state of these scopes, read consistently (the first step of a heal). */
export const read = async (scopes: readonly SummaryPlace[]): Promise<ReturnType<typeof fromItem>[]> => {
  const found = new Map((await batchGet(scopes.map(SummaryEntity.key))).map((item) => [String(item.PK), item]));
  return scopes.map((scope) => fromItem(scope, found.get(SummaryEntity.key(scope).PK)));
};

/** Overwrites a summary with the counts of rooms read after it, unless marked by a live run or written since. */
export const heal = async (stored: ReturnType<typeof fromItem>, counts: Counts, now = Date.now()): Promise<boolean> => {
  if (stored.inflight.some((startedAt) => now - startedAt < STALE_MS)) return false;
  if (stored.inflight.length === 0 && sameCounts(stored.counts, counts)) return false;
  const fields = { ...scopeFields(stored.scope), ...counts, version: stored.version + 1, updatedAt: new Date(now).toISOString() };
  return SummaryEntity.put(stored.scope, fields, asRead(stored.version));
};
