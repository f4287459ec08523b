import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { COUNT_FIELDS, sameCounts, zeroCounts, summaryKey, type Counts, type SummaryScope } from '#lib/devices/types';
import type { Place } from '#lib/devices/types';
import { doc, tableName } from '#lib/store/client';
import { locationId } from './place';
import { batchGet, isConditionFailed, queryAll, type Item } from './helpers';

/*
 * One summary item per scope (everything, each region, each region + location) holding the
 * counts of the room aggregates in it, so a count for those scopes is one GetItem.
 *
 * Kept right without transactions: a run that recomputes rooms first marks every summary it
 * will move (`inflight`, a string set of `<startedAt>:<runId>`, version + 1), then adds the
 * exact change of its room writes (each room write is version-guarded, so before -> after is
 * exact) and drops its mark in the same update. A heal reads a summary, then the rooms, and
 * overwrites the summary only under its version and only when no live run has a mark on it;
 * a mark older than STALE_MS belongs to a run that died, whose room writes the heal counts.
 */
const SUMMARIES = 'SUMMARIES';
const STALE_MS = 15 * 60 * 1000;
const enc = encodeURIComponent;

const scopeId = (scope: SummaryScope): string => {
  const { region, location } = scope as Partial<Place>;
  if (region === undefined) return 'ALL';
  return location === undefined ? `REGION#${enc(region)}` : `LOCATION#${locationId({ region, location })}`;
};
const keys = (scope: SummaryScope) => ({ PK: `SUMMARY#${scopeId(scope)}`, SK: 'SUMMARY' });

const countsOf = (item: Item | undefined): Counts => {
  const counts = zeroCounts();
  if (!item) return counts;
  for (const field of COUNT_FIELDS) counts[field] = Number(item[field] ?? 0);
  return counts;
};

const scopeOfItem = (item: Item): SummaryScope => {
  if (typeof item.region !== 'string') return {};
  return typeof item.location === 'string' ? { region: item.region, location: item.location } : { region: item.region };
};

const scopeFields = (scope: SummaryScope): Item => ({
  type: 'Summary',
  GSI1PK: SUMMARIES,
  GSI1SK: scopeId(scope),
  ...(scope as Partial<Place>),
});

const mark = (runId: string, startedAt: number) => `${startedAt}:${runId}`;

export interface StoredSummary {
  scope: SummaryScope;
  counts: Counts;
  version: number;
  /** Start times (epoch ms) of the runs that marked it and have not added their change yet. */
  inflight: number[];
}

const fromItem = (scope: SummaryScope, item: Item | undefined): StoredSummary => ({
  scope,
  counts: countsOf(item),
  version: Number(item?.version ?? 0),
  inflight: item?.inflight instanceof Set ? [...(item.inflight as Set<string>)].map((entry) => Number(entry.split(':')[0])) : [],
});

/** The counts of one scope: one eventually consistent GetItem (zeros when nothing was ever counted). */
export const get = async (scope: SummaryScope): Promise<Counts> => {
  const { Item } = await doc.send(
    new GetCommand({
      TableName: tableName(),
      Key: keys(scope),
      ProjectionExpression: COUNT_FIELDS.map((_, i) => `#c${i}`).join(', '),
      ExpressionAttributeNames: Object.fromEntries(COUNT_FIELDS.map((field, i) => [`#c${i}`, field])),
    }),
  );
  return countsOf(Item);
};

/** Marks the summaries a run is about to move (before its first room write). */
export const begin = async (runId: string, startedAt: number, scopes: readonly SummaryScope[]): Promise<void> => {
  await Promise.all(
    scopes.map((scope) =>
      doc.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys(scope),
          UpdateExpression: 'ADD #inflight :mark, #version :one SET #type = :type, GSI1PK = :gsi1pk, GSI1SK = :gsi1sk' + scopeSet(scope).expression,
          ExpressionAttributeNames: { '#inflight': 'inflight', '#version': 'version', '#type': 'type', ...scopeSet(scope).names },
          ExpressionAttributeValues: {
            ':mark': new Set([mark(runId, startedAt)]),
            ':one': 1,
            ':type': 'Summary',
            ':gsi1pk': SUMMARIES,
            ':gsi1sk': scopeId(scope),
            ...scopeSet(scope).values,
          },
        }),
      ),
    ),
  );
};

/** Adds the run's change to each summary it marked and drops its mark, in one update each. */
export const apply = async (runId: string, startedAt: number, scopes: readonly SummaryScope[], deltas: ReadonlyMap<string, { delta: Counts }>): Promise<void> => {
  await Promise.all(
    scopes.map((scope) => {
      const delta = deltas.get(summaryKey(scope))?.delta ?? zeroCounts();
      const adds = COUNT_FIELDS.map((field, i) => `#c${i} :c${i}`).join(', ');
      return doc.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys(scope),
          UpdateExpression: `ADD ${adds}, #version :one DELETE #inflight :mark`,
          ExpressionAttributeNames: { ...Object.fromEntries(COUNT_FIELDS.map((field, i) => [`#c${i}`, field])), '#version': 'version', '#inflight': 'inflight' },
          ExpressionAttributeValues: {
            ...Object.fromEntries(COUNT_FIELDS.map((field, i) => [`:c${i}`, delta[field]])),
            ':one': 1,
            ':mark': new Set([mark(runId, startedAt)]),
          },
        }),
      );
    }),
  );
};

/** Every summary item there is (discovery for a heal; GSI1 `SUMMARIES`, a few dozen items). */
export const scopes = async (): Promise<SummaryScope[]> => {
  const items = await queryAll({ IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': SUMMARIES } });
  return items.map(scopeOfItem);
};

/** The stored state of these scopes, read consistently (the first step of a heal). */
export const read = async (scopes: readonly SummaryScope[]): Promise<StoredSummary[]> => {
  const found = new Map((await batchGet(scopes.map(keys))).map((item) => [String(item.PK), item]));
  return scopes.map((scope) => fromItem(scope, found.get(keys(scope).PK)));
};

/**
 * Overwrites a summary read by `read` with the counts of the rooms read after it, unless a
 * live run marked it or anything wrote it since. True when it was written.
 */
export const heal = async (stored: StoredSummary, counts: Counts, now = Date.now()): Promise<boolean> => {
  if (stored.inflight.some((startedAt) => now - startedAt < STALE_MS)) return false;
  if (stored.inflight.length === 0 && sameCounts(stored.counts, counts)) return false;
  try {
    await doc.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys(stored.scope), ...scopeFields(stored.scope), ...counts, version: stored.version + 1, updatedAt: new Date(now).toISOString() },
        ...(stored.version === 0
          ? { ConditionExpression: 'attribute_not_exists(PK)' }
          : { ConditionExpression: '#version = :version', ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':version': stored.version } }),
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
};

function scopeSet(scope: SummaryScope) {
  const { region, location } = scope as Partial<Place>;
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (region !== undefined) {
    parts.push('#region = :region');
    names['#region'] = 'region';
    values[':region'] = region;
  }
  if (location !== undefined) {
    parts.push('#location = :location');
    names['#location'] = 'location';
    values[':location'] = location;
  }
  return { expression: parts.length ? `, ${parts.join(', ')}` : '', names, values };
}
