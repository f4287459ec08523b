import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { Invalid } from '#lib/errors';
import { doc, tableName } from './client';
import { queryAll, type Item } from './helpers';

/** A page of a list answered with `?limit` / `?cursor`: `nextCursor` is null on the last page. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

const badCursor = () =>
  new Invalid('cursor is not valid', [{ field: 'queryStringParameters.cursor', message: 'cursor must be a nextCursor this API answered' }]);

/** The opaque cursor of a position in an index: the key attributes of the last item answered. */
const encode = (key: Record<string, unknown>): string => Buffer.from(JSON.stringify(key)).toString('base64url');
const decode = (cursor: string, attributes: readonly string[]): Record<string, string> => {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  const key = value as Record<string, unknown>;
  if (typeof value !== 'object' || value === null || Object.keys(key).length !== attributes.length) throw badCursor();
  if (!attributes.every((a) => typeof key[a] === 'string')) throw badCursor();
  return key as Record<string, string>;
};

/**
 * One page of a Query that may carry a FilterExpression: reads until `limit` matches are found
 * or the index ends. `keyAttributes` are the attributes of the index's start key (table key
 * first); a cursor naming other attributes is a 4xx, never passed to the store.
 */
export const queryPage = async (
  input: Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>,
  keyAttributes: readonly string[],
  limit: number,
  cursor?: string,
): Promise<Page<Item>> => {
  const items: Item[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined = cursor ? decode(cursor, keyAttributes) : undefined;
  do {
    const page = await doc.send(new QueryCommand({ ...input, TableName: tableName(), Limit: limit - items.length, ExclusiveStartKey }));
    items.push(...((page.Items ?? []) as Item[]));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey && items.length < limit);
  // a full page ends on an item it answered: its key is where the next page starts
  const last = items[items.length - 1];
  const nextCursor =
    ExclusiveStartKey && last ? encode(Object.fromEntries(keyAttributes.map((a) => [a, last[a]]))) : null;
  return { items, nextCursor };
};

/** Every item, or one page when `limit` or `cursor` is given. */
export const queryListOrPage = async (
  input: Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>,
  keyAttributes: readonly string[],
  page: { limit?: number; cursor?: string },
): Promise<Item[] | Page<Item>> =>
  page.limit === undefined && page.cursor === undefined
    ? queryAll(input)
    : queryPage(input, keyAttributes, page.limit ?? 100, page.cursor);
