import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { doc, tableName } from '#lib/store/client';
import { badCursor, isKeyString, openCursor, sealCursor } from '#lib/store/cursor';
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

/**
 * One partition read newest first: of an index, or of the table itself (no `index`). Partitions
 * merged into one list must share the format of their sort keys, each item lying in one of them.
 */
export interface DescendingPartition extends Omit<ShardedIndex, 'base' | 'index' | 'unsharded'> {
  pk: string;
  index?: 'GSI1' | 'GSI2';
}

const keyNames = (partition: DescendingPartition) => (partition.index ? { pk: `${partition.index}PK`, sk: `${partition.index}SK` } : { pk: 'PK', sk: 'SK' });

const partitionQuery = (partition: DescendingPartition, after?: string): Omit<QueryCommandInput, 'TableName'> | undefined => {
  const { pk: pkName, sk: skName } = keyNames(partition);
  const names: Record<string, string> = { ...partition.ExpressionAttributeNames, '#pk': pkName };
  const values: Record<string, unknown> = { ...partition.ExpressionAttributeValues, ':pk': partition.pk };
  let condition = '#pk = :pk';
  if (partition.range) {
    // BETWEEN is inclusive: the item at `after` itself is dropped by the reader
    const upper = after !== undefined && after < partition.range.to ? after : partition.range.to;
    if (upper < partition.range.from) return undefined;
    condition += ' AND #sk BETWEEN :from AND :upper';
    Object.assign(names, { '#sk': skName });
    Object.assign(values, { ':from': partition.range.from, ':upper': upper });
  } else if (after !== undefined) {
    condition += ' AND #sk < :after';
    Object.assign(names, { '#sk': skName });
    Object.assign(values, { ':after': after });
  }
  return {
    ...(partition.index ? { IndexName: partition.index } : {}),
    KeyConditionExpression: condition,
    ScanIndexForward: false,
    ...(partition.FilterExpression ? { FilterExpression: partition.FilterExpression } : {}),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
};

/** The partitions of a sharded index: its K shards, and the unsharded key where asked. */
const partitionsOf = ({ base, unsharded, ...spec }: ShardedIndex): DescendingPartition[] =>
  [...allShards(base), ...(unsharded ? [base] : [])].map((pk) => ({ ...spec, pk }));

/** An item and its sort key in the partition it was read from. */
interface Sorted {
  item: Item;
  sort: string;
}

/** Up to `limit` matching items of one partition, newest (highest sort key) first, below `after`. */
const partitionPage = async (partition: DescendingPartition, limit: number, after?: string) => {
  const input = partitionQuery(partition, after);
  const items: Sorted[] = [];
  if (!input) return { items, more: false };
  const { sk } = keyNames(partition);
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(new QueryCommand({ ...input, TableName: tableName(), Limit: limit - items.length + (after === undefined ? 0 : 1), ExclusiveStartKey }));
    for (const item of (page.Items ?? []) as Item[]) {
      const sort = String(item[sk]);
      if (after === undefined || sort < after) items.push({ item, sort });
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey && items.length < limit);
  return { items: items.slice(0, limit), more: ExclusiveStartKey !== undefined || items.length > limit };
};

const descending = (a: Sorted, b: Sorted) => (a.sort < b.sort ? 1 : a.sort > b.sort ? -1 : 0);

/**
 * Partitions sorted by a unique sort key of one format, newest first, as one list: every item,
 * or one page (`limit`, `cursor`). A page asks each partition for `limit` items below the
 * cursor's sort key and keeps the `limit` highest, so pages follow each other exactly as over
 * one partition.
 */
export const queryPartitionsDescending = async (
  partitions: readonly DescendingPartition[],
  page: { limit?: number; cursor?: string },
  /** The identity of the endpoint and its filters: a cursor is valid for this query only (lib/store/cursor.ts). */
  query: string,
): Promise<Item[] | Page<Item>> => {
  if (page.limit === undefined && page.cursor === undefined) {
    const all = await Promise.all(
      partitions.map(async (partition) => {
        const input = partitionQuery(partition);
        const { sk } = keyNames(partition);
        return input ? (await queryAll(input)).map((item) => ({ item, sort: String(item[sk]) })) : [];
      }),
    );
    return all.flat().sort(descending).map(({ item }) => item);
  }
  const limit = page.limit ?? 100;
  const after = page.cursor === undefined ? undefined : afterOf(openCursor(query, page.cursor));
  const perPartition = await Promise.all(partitions.map((partition) => partitionPage(partition, limit, after)));
  const merged = perPartition.flatMap((answer) => answer.items).sort(descending);
  const items = merged.slice(0, limit);
  const more = merged.length > limit || perPartition.some((answer) => answer.more);
  const last = items[items.length - 1];
  return { items: items.map(({ item }) => item), nextCursor: more && last ? sealCursor(query, { after: last.sort }) : null };
};

/** A sharded index sorted by a unique sort key, newest first, as one list (`queryPartitionsDescending` over its shards). */
export const queryShardsDescending = (spec: ShardedIndex, page: { limit?: number; cursor?: string }, query: string): Promise<Item[] | Page<Item>> =>
  queryPartitionsDescending(partitionsOf(spec), page, query);
