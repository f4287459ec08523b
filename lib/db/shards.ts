import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { doc, tableName } from './client';
import { badCursor, isKeyString, openCursor, sealCursor } from './cursor';
import { queryAll, type Item } from './helpers';
import type { Page } from './pages';

/*
 * Fleet-sized and hot partitions (the inventory index, the room aggregates, the open alarms,
 * pending mails, the outbox) are spread over K shards: `<base>#<shard>`, the shard a stable
 * hash of the item's own identity. Readers query every shard in parallel and restore the order.
 * K comes from SHARDS (default 8) and is fixed per stage: changing it needs a re-seed.
 */
const DEFAULT_SHARDS = 8;
const MAX_SHARDS = 64;

export const shardCount = (): number => {
  const raw = process.env.SHARDS;
  if (raw === undefined || raw === '') return DEFAULT_SHARDS;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1 || count > MAX_SHARDS) throw new Error(`SHARDS must be an integer 1..${MAX_SHARDS} (got ${raw})`);
  return count;
};

/** FNV-1a, 32 bit: cheap, stable across runtimes, spreads serial numbers and names evenly. */
const fnv1a = (text: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
};

/** The bucket (0..count-1) of `identity`: the same stable hash as the shards. */
export const bucketOf = (identity: string, count: number): number => fnv1a(identity) % count;

/** The partition key of `identity` within the sharded `base`. */
export const shardKey = (base: string, identity: string): string => `${base}#${fnv1a(identity) % shardCount()}`;

/** Every partition key of the sharded `base`. */
export const allShards = (base: string): string[] => Array.from({ length: shardCount() }, (_, i) => `${base}#${i}`);

/** Runs one Query per shard (all pages each), in parallel; `input` builds the Query for a partition key. */
export const queryShards = async (base: string, input: (pk: string) => Omit<QueryCommandInput, 'TableName'>): Promise<Item[]> =>
  (await Promise.all(allShards(base).map((pk) => queryAll(input(pk))))).flat();

const afterOf = (position: Record<string, unknown>): string => {
  if (!isKeyString(position.after)) throw badCursor();
  return position.after;
};

export interface ShardedIndex {
  base: string;
  /** The index holding the shards; none: the table itself (`PK`, `SK`). */
  index?: 'GSI1' | 'GSI2';
  /** Only sort keys in this window (inclusive; `:from`, `:upper` are taken). */
  range?: { from: string; to: string };
  /** Also read the unsharded `base` itself (items stored before the key was sharded). */
  unsharded?: boolean;
  /** Filter, names and values beyond the key condition (`:pk`, `:after`, `#pk`, `#sk` are taken). */
  FilterExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

const keyNames = (spec: ShardedIndex) => (spec.index ? { pk: `${spec.index}PK`, sk: `${spec.index}SK` } : { pk: 'PK', sk: 'SK' });

const indexQuery = (spec: ShardedIndex, pk: string, after?: string): Omit<QueryCommandInput, 'TableName'> | undefined => {
  const names: Record<string, string> = { ...spec.ExpressionAttributeNames, '#pk': keyNames(spec).pk };
  const values: Record<string, unknown> = { ...spec.ExpressionAttributeValues, ':pk': pk };
  let condition = '#pk = :pk';
  if (spec.range) {
    // BETWEEN is inclusive: the item at `after` itself is dropped by the reader
    const upper = after !== undefined && after < spec.range.to ? after : spec.range.to;
    if (upper < spec.range.from) return undefined;
    condition += ' AND #sk BETWEEN :from AND :upper';
    Object.assign(names, { '#sk': keyNames(spec).sk });
    Object.assign(values, { ':from': spec.range.from, ':upper': upper });
  } else if (after !== undefined) {
    condition += ' AND #sk < :after';
    Object.assign(names, { '#sk': keyNames(spec).sk });
    Object.assign(values, { ':after': after });
  }
  return {
    ...(spec.index ? { IndexName: spec.index } : {}),
    KeyConditionExpression: condition,
    ScanIndexForward: false,
    ...(spec.FilterExpression ? { FilterExpression: spec.FilterExpression } : {}),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
};

/** The partitions of a sharded index: its K shards, and the unsharded key where asked. */
const partitionsOf = (spec: ShardedIndex) => [...allShards(spec.base), ...(spec.unsharded ? [spec.base] : [])];

/** Up to `limit` matching items of one shard, newest (highest sort key) first, below `after`. */
const shardPage = async (spec: ShardedIndex, pk: string, limit: number, after?: string) => {
  const input = indexQuery(spec, pk, after);
  const items: Item[] = [];
  if (!input) return { items, more: false };
  const { sk } = keyNames(spec);
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(new QueryCommand({ ...input, TableName: tableName(), Limit: limit - items.length + (after === undefined ? 0 : 1), ExclusiveStartKey }));
    items.push(...((page.Items ?? []) as Item[]).filter((item) => after === undefined || String(item[sk]) < after));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey && items.length < limit);
  return { items: items.slice(0, limit), more: ExclusiveStartKey !== undefined || items.length > limit };
};

const descending = (sk: string) => (a: Item, b: Item) => (String(a[sk]) < String(b[sk]) ? 1 : String(a[sk]) > String(b[sk]) ? -1 : 0);

/**
 * A sharded index sorted by a unique sort key, newest first, as one list: every item, or one
 * page (`limit`, `cursor`). A page asks each shard for `limit` items below the cursor's sort
 * key and keeps the `limit` highest, so pages follow each other exactly as over one partition.
 */
export const queryShardsDescending = async (
  spec: ShardedIndex,
  page: { limit?: number; cursor?: string },
  /** The identity of the endpoint and its filters: a cursor is valid for this query only (lib/db/cursor.ts). */
  query: string,
): Promise<Item[] | Page<Item>> => {
  const { sk } = keyNames(spec);
  if (page.limit === undefined && page.cursor === undefined) {
    const all = await Promise.all(partitionsOf(spec).map(async (pk) => {
      const input = indexQuery(spec, pk);
      return input ? queryAll(input) : [];
    }));
    return all.flat().sort(descending(sk));
  }
  const limit = page.limit ?? 100;
  const after = page.cursor === undefined ? undefined : afterOf(openCursor(query, page.cursor));
  const perShard = await Promise.all(partitionsOf(spec).map((pk) => shardPage(spec, pk, limit, after)));
  const merged = perShard.flatMap((answer) => answer.items).sort(descending(sk));
  const items = merged.slice(0, limit);
  const more = merged.length > limit || perShard.some((answer) => answer.more);
  const last = items[items.length - 1];
  return { items, nextCursor: more && last ? sealCursor(query, { after: String(last[sk]) }) : null };
};
