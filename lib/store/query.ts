import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { doc, tableName } from './client';
import { compile, expr, projection, type Expr, type Item } from './expression';

/** One partition of the table (no `index`) or of an index, as data. */
export interface Query {
  index?: 'GSI1' | 'GSI2';
  pk: string;
  /** A condition on the sort key, `#sk` standing for it: `begins_with(#sk, :prefix)`, `#sk <= :now`. */
  sk?: Expr | string;
  filter?: Expr | string;
  project?: readonly string[];
  consistent?: boolean;
  descending?: boolean;
  limit?: number;
  /** `Select: COUNT`: nothing transferred. */
  count?: boolean;
  /** Ask for the read units each page consumed (`units` of the page). */
  capacity?: boolean;
}

export const keyNames = (index?: 'GSI1' | 'GSI2') => (index ? { pk: `${index}PK`, sk: `${index}SK` } : { pk: 'PK', sk: 'SK' });

const queryInput = (q: Query) => {
  const { pk, sk } = keyNames(q.index);
  const skTerm = typeof q.sk === 'string' ? { expression: q.sk } : q.sk;
  const key: Expr = {
    expression: `#pk = :pk${skTerm ? ` AND ${skTerm.expression}` : ''}`,
    names: { '#pk': pk, ...(skTerm ? { '#sk': sk } : {}), ...skTerm?.names },
    values: { ':pk': q.pk, ...skTerm?.values },
  };
  return {
    ...(q.index ? { IndexName: q.index } : {}),
    ...compile({ KeyConditionExpression: key, FilterExpression: q.filter, ProjectionExpression: q.project && projection(q.project) }),
    ...(q.consistent ? { ConsistentRead: true } : {}),
    ...(q.descending ? { ScanIndexForward: false } : {}),
    ...(q.limit ? { Limit: q.limit } : {}),
    ...(q.count ? { Select: 'COUNT' as const } : {}),
    ...(q.capacity ? { ReturnConsumedCapacity: 'TOTAL' as const } : {}),
  };
};

type Read = Pick<QueryCommandOutput, 'Items' | 'Count' | 'ConsumedCapacity' | 'LastEvaluatedKey'>;

/** The one page-reading loop: each page in turn, from `start`, until the reads end or the caller stops (also scripts/migrate.ts's Scan). */
export async function* paged(read: (start: Item | undefined) => Promise<Read>, start?: Item) {
  let ExclusiveStartKey = start;
  do {
    const page = await read(ExclusiveStartKey);
    ExclusiveStartKey = page.LastEvaluatedKey;
    yield { items: page.Items ?? [], count: page.Count ?? 0, units: page.ConsumedCapacity?.CapacityUnits ?? 0, next: ExclusiveStartKey };
  } while (ExclusiveStartKey);
}

/** Each page of a Query, from `start`; `limit` (asked before each read) bounds what one read takes. */
export const pages = (q: Query, start?: Item, limit?: () => number) => {
  const input = queryInput(q);
  return paged((ExclusiveStartKey) => doc.send(new QueryCommand({ ...input, TableName: tableName(), ...(limit ? { Limit: limit() } : {}), ExclusiveStartKey })), start);
};

/** Every item of a Query (all pages); for collections the design keeps small (settings, rules). */
export const queryAll = async (q: Query): Promise<Item[]> => {
  const items: Item[] = [];
  for await (const page of pages(q)) items.push(...page.items);
  return items;
};

export const queryFirst = async (q: Query): Promise<Item | undefined> => (await pages({ ...q, limit: 1 }).next()).value?.items[0];

/** The highest sort key `<prefix>#<id>` can have (ids sort below U+FFFF): a range up to `prefix` takes all of its ids. */
export const lastKeyOf = (prefix: string): string => `${prefix}#\uffff`;
/** Sort keys `<instant>#<id>` at or before `now`: the due items of a time-ordered index. */
export const dueBy = (now: string) => expr('#sk <= :now', { now: lastKeyOf(now) });

// K shards of hot partitions, `<base>#<shard>` by a stable hash; K from SHARDS, fixed per stage (docs/adr/0128).
const DEFAULT_SHARDS = 8;
const MAX_SHARDS = 64;

const shardCount = (): number => {
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

export const shardKey = (base: string, identity: string): string => `${base}#${fnv1a(identity) % shardCount()}`;

export const allShards = (base: string): string[] => Array.from({ length: shardCount() }, (_, i) => `${base}#${i}`);

/** One Query per shard of `base` (all pages each), in parallel. */
export const queryShards = async (base: string, q: Omit<Query, 'pk'>): Promise<Item[]> =>
  (await Promise.all(allShards(base).map((pk) => queryAll({ ...q, pk })))).flat();
