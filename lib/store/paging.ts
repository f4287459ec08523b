import { badCursor, isKeyString, openCursor, sealCursor } from './cursor';
import type { Item } from './expression';
import { allShards, keyNames, pages, queryAll, type Query } from './query';

/** A page of a list answered with `?limit` / `?cursor`: `nextCursor` is null on the last page. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Attributes of a Query's start key, table key first (`PK, SK, GSI1PK, GSI1SK`). */
const keyAttributes = (q: Query): string[] => (q.index ? ['PK', 'SK', ...Object.values(keyNames(q.index))] : ['PK', 'SK']);

/** The cursor of the item a page ended on, valid for `identity` (the endpoint and its filters) only. */
const sealAt = (q: Query, identity: string, key: Item) => sealCursor(identity, Object.fromEntries(keyAttributes(q).map((a) => [a, key[a]])));

/** The start key a sealed cursor holds, checked again: exactly the key attributes, in the query's partition. */
const startKey = (cursor: string, q: Query, identity: string): Item => {
  const key = openCursor(identity, cursor);
  const attributes = keyAttributes(q);
  if (Object.keys(key).length !== attributes.length || !attributes.every((a) => isKeyString(key[a]))) throw badCursor();
  if (key[keyNames(q.index).pk] !== q.pk) throw badCursor();
  return key;
};

/** One page of a Query that may filter, until `limit` matches; a cursor not sealed for it is a 422. */
export const queryPage = async (q: Query, identity: string, limit: number, cursor?: string): Promise<Page<Item>> => {
  const items: Item[] = [];
  let next: Item | undefined;
  for await (const page of pages(q, cursor ? startKey(cursor, q, identity) : undefined, () => limit - items.length)) {
    items.push(...page.items);
    next = page.next;
    if (items.length >= limit) break;
  }
  // a full page ends on an item it answered: its key is where the next page starts
  const last = items[items.length - 1];
  return { items, nextCursor: next && last ? sealAt(q, identity, last) : null };
};

export const mapPage = <T, R>(page: Page<T>, map: (item: T) => R): Page<R> => ({ items: page.items.map(map), nextCursor: page.nextCursor });

/** One page of a Query as `fromItem` reads it; with `keep`, of the items it accepts (the cursors are the same). */
export const readPage = async <T>(q: Query, identity: string, fromItem: (item: Item) => T, limit: number, cursor?: string, keep?: (value: T) => boolean): Promise<Page<T>> =>
  mapPage(await (keep ? queryKeptPage(q, identity, (item) => keep(fromItem(item)), limit, cursor) : queryPage(q, identity, limit, cursor)), fromItem);

export const mapListOrPage = <T, R>(answer: T[] | Page<T>, map: (item: T) => R): R[] | Page<R> =>
  Array.isArray(answer) ? answer.map(map) : mapPage(answer, map);

/** A list as `fromItem` reads it: whole, one page (cursors sealed for `identity`; `keep`: of the items it accepts), or either. */
export const listed = <T>(q: () => Query, identity: string, fromItem: (item: Item) => T) => {
  const all = async (): Promise<T[]> => (await queryAll(q())).map(fromItem);
  const page = async (limit: number, cursor?: string, keep?: (value: T) => boolean): Promise<Page<T>> => readPage(q(), identity, fromItem, limit, cursor, keep);
  return {
    all,
    page,
    /** Every item, or one page when `limit` or `cursor` is given. */
    listOrPage: async (asked: { limit?: number; cursor?: string }): Promise<T[] | Page<T>> =>
      asked.limit === undefined && asked.cursor === undefined ? all() : page(asked.limit ?? 100, asked.cursor),
  };
};

/** Items a kept page reads from the store at once: a scoped caller's share may be a small part of a list. */
const KEPT_READ = 100;

/** One page of the items `keep` accepts, within `reads` reads; the cursors are `queryPage`'s (docs/guide/rules/access.md "Scoped acknowledgements follow the alarm's place; scoped lists fill their pages"). */
const queryKeptPage = async (q: Query, identity: string, keep: (item: Item) => boolean, limit: number, cursor?: string, reads = 10): Promise<Page<Item>> => {
  const items: Item[] = [];
  let done = 0;
  for await (const page of pages(q, cursor ? startKey(cursor, q, identity) : undefined, () => Math.max(limit, KEPT_READ))) {
    for (const [i, item] of page.items.entries()) {
      if (!keep(item)) continue;
      items.push(item);
      // full: the next page starts after this item, unless it was the list's last
      if (items.length === limit) return { items, nextCursor: i < page.items.length - 1 || page.next ? sealAt(q, identity, item) : null };
    }
    if (++done >= reads) return { items, nextCursor: page.next ? sealAt(q, identity, page.next) : null };
  }
  return { items, nextCursor: null };
};

/** One partition read newest first, sort keys within `range` if given; merged partitions share one sort-key format. */
export interface DescendingPartition extends Pick<Query, 'index' | 'pk' | 'filter'> {
  range?: { from: string; to: string };
}

export const shardsOf = ({ pk, ...spec }: DescendingPartition): DescendingPartition[] => allShards(pk).map((shard) => ({ ...spec, pk: shard }));

const partitionQuery = ({ range, ...partition }: DescendingPartition, after?: string): Query | undefined => {
  if (range) {
    // BETWEEN is inclusive: the item at `after` itself is dropped by the reader
    const upper = after !== undefined && after < range.to ? after : range.to;
    if (upper < range.from) return undefined;
    return { ...partition, descending: true, sk: { expression: '#sk BETWEEN :from AND :upper', values: { from: range.from, upper } } };
  }
  return { ...partition, descending: true, ...(after === undefined ? {} : { sk: { expression: '#sk < :after', values: { after } } }) };
};

interface Sorted {
  item: Item;
  sort: string;
}

/** Queries one page read may take from one partition: a filter the key does not narrow never reads a whole partition for one page. */
export const PARTITION_READS_PER_PAGE = 10;
/** Items a filtered read evaluates at least: few matches per read would cost one Query each. */
const FILTERED_READ_MIN = 100;

/** Up to `limit` items of one partition below `after` in `reads` Queries; `reached`: where its budget stopped it (docs/guide/rules/store.md "Descending pages read within a budget"). */
const partitionPage = async (partition: DescendingPartition, limit: number, after: string | undefined, reads: number) => {
  const q = partitionQuery(partition, after);
  const items: Sorted[] = [];
  if (!q) return { items, more: false };
  const { sk } = keyNames(partition.index);
  const wanted = () => limit - items.length + (after === undefined ? 0 : 1);
  let more = false;
  let reached: string | undefined;
  let read = 0;
  for await (const page of pages(q, undefined, () => (partition.filter ? Math.max(wanted(), FILTERED_READ_MIN) : wanted()))) {
    for (const item of page.items) if (after === undefined || String(item[sk]) < after) items.push({ item, sort: String(item[sk]) });
    more = page.next !== undefined;
    if (items.length >= limit) break;
    if (more && ++read >= reads) {
      reached = String(page.next![sk]);
      break;
    }
  }
  // read down to here and no further: the budget's stop, or the last item where the page filled
  const last = items[items.length - 1];
  const knownDownTo = reached ?? (more && items.length >= limit && last ? last.sort : undefined);
  return { items, more: more || items.length > limit, reached, knownDownTo };
};

const descending = (a: Sorted, b: Sorted) => (a.sort < b.sort ? 1 : a.sort > b.sort ? -1 : 0);

const afterOf = (position: Item): string => {
  if (!isKeyString(position.after)) throw badCursor();
  return position.after;
};

/** Partitions with one sort-key format, merged newest first: all, or one page (docs/guide/rules/store.md). */
export const queryPartitionsDescending = async (
  partitions: readonly DescendingPartition[],
  page: { limit?: number; cursor?: string; reads?: number },
  identity: string,
): Promise<Item[] | Page<Item>> => {
  if (page.limit === undefined && page.cursor === undefined) {
    const all = await Promise.all(
      partitions.map(async (partition) => {
        const q = partitionQuery(partition);
        const { sk } = keyNames(partition.index);
        return q ? (await queryAll(q)).map((item) => ({ item, sort: String(item[sk]) })) : [];
      }),
    );
    return all.flat().sort(descending).map(({ item }) => item);
  }
  const limit = page.limit ?? 100;
  const after = page.cursor === undefined ? undefined : afterOf(openCursor(identity, page.cursor));
  const perPartition = await Promise.all(partitions.map((partition) => partitionPage(partition, limit, after, page.reads ?? PARTITION_READS_PER_PAGE)));
  // A partition stopped by its read budget knows nothing below where it got to, one that filled the
  // page nothing below its last item: once a budget stopped one, the page ends at the highest of those.
  const stopped = perPartition.some(({ reached }) => reached !== undefined);
  const floor = stopped
    ? perPartition.reduce<string | undefined>((high, { knownDownTo }) => (knownDownTo !== undefined && (high === undefined || knownDownTo > high) ? knownDownTo : high), undefined)
    : undefined;
  const merged = perPartition
    .flatMap((answer) => answer.items)
    .filter(({ sort }) => floor === undefined || sort >= floor)
    .sort(descending);
  const items = merged.slice(0, limit);
  const last = items[items.length - 1];
  const more = perPartition.some((answer) => answer.more);
  // a short (even empty) page: the cursor goes on below the budget's floor
  const next = merged.length > limit && last ? last.sort : (floor ?? (more && last ? last.sort : undefined));
  return { items: items.map(({ item }) => item), nextCursor: next === undefined ? null : sealCursor(identity, { after: next }) };
};

/** One page (`limit`, `cursor` given) of `queryPartitionsDescending`. */
export const descendingPage = async (partitions: readonly DescendingPartition[], limit: number, cursor: string | undefined, identity: string): Promise<Page<Item>> =>
  (await queryPartitionsDescending(partitions, { limit, ...(cursor === undefined ? {} : { cursor }) }, identity)) as Page<Item>;
