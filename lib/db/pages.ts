import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { doc, tableName } from '#lib/store/client';
import { badCursor, isKeyString, openCursor, sealCursor } from '#lib/store/cursor';
import { queryAll, type Item } from './helpers';

/** A page of a list answered with `?limit` / `?cursor`: `nextCursor` is null on the last page. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** What a cursor of one paginated Query is bound to. */
export interface PagedQuery {
  /** Attributes of the index's start key, table key first (`PK, SK, GSI1PK, GSI1SK`). */
  keyAttributes: readonly string[];
  /** The partition the Query reads, e.g. `{ GSI1PK: 'ALARMS#OPEN' }`: a cursor must stay inside it. */
  partition: Record<string, string>;
  /** The endpoint and its filters: a cursor answered for one query is refused by any other. */
  query: string;
}

/** The start key a sealed cursor holds, checked again: exactly the key attributes, in the query's partition. */
const startKey = (cursor: string, paged: PagedQuery): Record<string, string> => {
  const key = openCursor(paged.query, cursor);
  const attributes = Object.keys(key);
  if (attributes.length !== paged.keyAttributes.length || !paged.keyAttributes.every((a) => isKeyString(key[a]))) throw badCursor();
  if (!Object.entries(paged.partition).every(([attribute, value]) => key[attribute] === value)) throw badCursor();
  return key as Record<string, string>;
};

/**
 * One page of a Query that may carry a FilterExpression: reads until `limit` matches are found
 * or the index ends. A cursor not sealed by this API for this query is a 422, never passed to the store.
 */
export const queryPage = async (
  input: Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>,
  paged: PagedQuery,
  limit: number,
  cursor?: string,
): Promise<Page<Item>> => {
  const items: Item[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined = cursor ? startKey(cursor, paged) : undefined;
  do {
    const page = await doc.send(new QueryCommand({ ...input, TableName: tableName(), Limit: limit - items.length, ExclusiveStartKey }));
    items.push(...((page.Items ?? []) as Item[]));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey && items.length < limit);
  // a full page ends on an item it answered: its key is where the next page starts
  const last = items[items.length - 1];
  const nextCursor =
    ExclusiveStartKey && last ? sealCursor(paged.query, Object.fromEntries(paged.keyAttributes.map((a) => [a, last[a]]))) : null;
  return { items, nextCursor };
};

/** Every item, or one page when `limit` or `cursor` is given. */
export const queryListOrPage = async (
  input: Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>,
  paged: PagedQuery,
  page: { limit?: number; cursor?: string },
): Promise<Item[] | Page<Item>> =>
  page.limit === undefined && page.cursor === undefined
    ? queryAll(input)
    : queryPage(input, paged, page.limit ?? 100, page.cursor);

/** Each item of a page mapped, the page keeping its cursor. */
export const mapPage = <T, R>(page: Page<T>, map: (item: T) => R): Page<R> => ({ items: page.items.map(map), nextCursor: page.nextCursor });

/** Each item of a list or of a page mapped. */
export const mapListOrPage = <T, R>(answer: T[] | Page<T>, map: (item: T) => R): R[] | Page<R> =>
  Array.isArray(answer) ? answer.map(map) : mapPage(answer, map);

/** Items a kept page reads from the store at once: a scoped caller's share may be a small part of a list. */
const KEPT_READ = 100;

/**
 * One page of the items `keep` accepts (a scoped caller's share of a list): reads the store
 * `KEPT_READ` items (or `limit`, if more) at a time until `limit` are kept, the list ends, or
 * `reads` reads were made. A full page's cursor is its last item; a short page (reads spent)
 * carries on from the last item read. The cursors are those of `queryPage` for the same query.
 */
export const queryKeptPage = async (
  input: Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>,
  paged: PagedQuery,
  keep: (item: Item) => boolean,
  limit: number,
  cursor?: string,
  reads = 10,
): Promise<Page<Item>> => {
  const seal = (key: Record<string, unknown>) => sealCursor(paged.query, Object.fromEntries(paged.keyAttributes.map((a) => [a, key[a]])));
  const items: Item[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined = cursor ? startKey(cursor, paged) : undefined;
  for (let done = 0; done < reads; done++) {
    const page = await doc.send(new QueryCommand({ ...input, TableName: tableName(), Limit: Math.max(limit, KEPT_READ), ExclusiveStartKey }));
    const read = (page.Items ?? []) as Item[];
    for (const [i, item] of read.entries()) {
      if (!keep(item)) continue;
      items.push(item);
      // full: the next page starts after this item, unless it was the list's last
      if (items.length === limit) return { items, nextCursor: i < read.length - 1 || page.LastEvaluatedKey ? seal(item) : null };
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
    if (!ExclusiveStartKey) return { items, nextCursor: null };
  }
  return { items, nextCursor: ExclusiveStartKey ? seal(ExclusiveStartKey) : null };
};
