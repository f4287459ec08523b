import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DeleteCommandInput,
  type QueryCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { ServiceUnavailable } from '#lib/errors';
import { mapConcurrent } from '#lib/shared/concurrency';
import { pause } from '#lib/shared/deadline';
import { doc, tableName } from '#lib/store/client';

export type Item = Record<string, unknown>;

/** Zero-padded so that numeric ids sort as numbers inside a sort key. */
export const padId = (id: number): string => String(id).padStart(15, '0');

export const isConditionFailed = (error: unknown): boolean => error instanceof ConditionalCheckFailedException;

/** Sends a conditional write: true when it landed, false when its condition did not hold. */
export const conditionHeld = async (write: Promise<unknown>): Promise<boolean> => {
  try {
    await write;
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
};

/** A write conditioned on `attribute_exists(PK)`: a failed condition becomes `missing()` (a 404). */
export const whenExists = async <T>(write: Promise<T>, missing: () => Error): Promise<T> => {
  try {
    return await write;
  } catch (error) {
    if (isConditionFailed(error)) throw missing();
    throw error;
  }
};

/** Writes `item` only if no item has its key; otherwise throws `exists()` (a 409). */
export const putNew = async (item: Item, exists: () => Error): Promise<void> => {
  try {
    await doc.send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' }));
  } catch (error) {
    if (isConditionFailed(error)) throw exists();
    throw error;
  }
};

/** Deletes the item at `key` if it exists; otherwise throws `missing()`. */
export const deleteExisting = async (key: Item, missing: () => Error): Promise<void> => {
  await whenExists(deleteItem(key, { ConditionExpression: 'attribute_exists(PK)' }), missing);
};

/** The one page-reading loop: each page of a Query in turn, until the index ends or the caller stops. */
export async function* queryPages(input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>) {
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey }));
    yield page;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}

/** Every page of a Query; for collections the design keeps small (settings, rules). */
export const queryAll = async (input: Omit<QueryCommandInput, 'TableName'>): Promise<Item[]> => {
  const items: Item[] = [];
  for await (const page of queryPages(input)) items.push(...((page.Items ?? []) as Item[]));
  return items;
};

/** Every item of one partition (`PK = partition`), in sort-key order. */
export const queryPartition = (partition: string): Promise<Item[]> =>
  queryAll({ KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': partition } });

/** Atomic sequence: each call returns the next integer for `name`, starting at 1. */
export const nextSequence = async (name: string): Promise<number> => {
  const { Attributes } = await doc.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { PK: 'SEQUENCE', SK: name },
      UpdateExpression: 'ADD #value :one SET #type = :type',
      ExpressionAttributeNames: { '#value': 'value', '#type': 'type' },
      ExpressionAttributeValues: { ':one': 1, ':type': 'Sequence' },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.value);
};

/** What one UpdateItem changes: values to SET (undefined = REMOVE), names to REMOVE, lists to append to, numbers to add. */
export interface UpdateParts {
  set?: Record<string, unknown>;
  remove?: readonly string[];
  append?: Record<string, unknown[]>;
  increment?: Record<string, number>;
}

/** The one builder of UpdateExpressions: every name and value a placeholder (`#n0`, `:v0`, ...). */
export const updateExpression = ({ set = {}, remove = [], append = {}, increment = {} }: UpdateParts) => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const removed = [...remove];
  let n = 0;
  const name = (field: string) => {
    names[`#n${n}`] = field;
    return `#n${n}`;
  };
  for (const [field, by] of Object.entries(increment)) {
    sets.push(`${name(field)} = #n${n} + :v${n}`);
    values[`:v${n++}`] = by;
  }
  for (const [field, value] of Object.entries(set)) {
    if (value === undefined) {
      removed.push(field);
      continue;
    }
    sets.push(`${name(field)} = :v${n}`);
    values[`:v${n++}`] = value;
  }
  for (const [field, list] of Object.entries(append)) {
    values[':empty'] = [];
    sets.push(`${name(field)} = list_append(if_not_exists(#n${n}, :empty), :v${n})`);
    values[`:v${n++}`] = list;
  }
  const removes = removed.map((field) => {
    const placeholder = name(field);
    n++;
    return placeholder;
  });
  return {
    UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : ''].join(' ').trim(),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
};

/**
 * A partial update that also bumps `version` and `updatedAt`, so every write of a record is
 * visible to optimistic-concurrency checks.
 */
export const patchExpression = (patch: Item, now: string) =>
  updateExpression({ increment: { version: 1 }, set: { updatedAt: now, ...patch } });

export type WriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: Item } };

export const BATCH_SIZE = 25;
/** Keys one BatchGetItem may name. */
const GET_BATCH_SIZE = 100;
/** A batch gives up after this many rounds in a row that the store took none of (DESIGN §3). */
const MAX_IDLE_ROUNDS = 10;
/** Backoff between rounds: capped exponential, full jitter (the store sheds load, we spread out). */
const BACKOFF_BASE_MS = 50;
const BACKOFF_CAP_MS = 2_000;
export const backoff = (round: number): number => Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** round);

const chunked = <T>(list: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

/** A whole batch refused for throughput (DynamoDB throttles every item of it): a round that took nothing. */
const THROTTLED = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);
const throttled = (error: unknown): boolean => error instanceof Error && THROTTLED.has(error.name);

/**
 * Sends `pending` in rounds until the store took all of it: `send` answers what it handed
 * back (UnprocessedItems / UnprocessedKeys); a round refused whole for throughput took nothing.
 * Each round that took nothing counts towards the limit, and every round after the first waits
 * a jittered, growing pause; a round that made progress starts the count again, so a throttled
 * partition slows the batch down instead of failing it. Throws a 503 once the store took
 * nothing for MAX_IDLE_ROUNDS rounds.
 */
const untilTaken = async <T>(pending: T[], send: (pending: T[]) => Promise<T[]>): Promise<void> => {
  let idle = 0;
  for (let round = 0; pending.length > 0; round++) {
    if (round > 0) await pause(backoff(idle + 1));
    const left = await send(pending).catch((error: unknown) => {
      if (throttled(error)) return pending;
      throw error;
    });
    idle = left.length < pending.length ? 0 : idle + 1;
    if (idle >= MAX_IDLE_ROUNDS) throw new ServiceUnavailable(`${left.length} requests were not accepted by the store; retry the request`);
    pending = left;
  }
};

/** A key as a string, to find the same key twice (attribute order aside). */
const keyId = (key: Item): string => JSON.stringify(Object.keys(key).sort().map((name) => [name, key[name]]));

/**
 * The items at `keys` (absent ones left out): BatchGetItem, 100 distinct keys a request (a
 * batch never names one key twice: DESIGN §3), `inFlight` requests at a time, unprocessed keys
 * retried with backoff. Strongly consistent unless `consistent: false`.
 */
export const batchGet = async (
  keys: readonly Item[],
  options: { projection?: { ProjectionExpression: string; ExpressionAttributeNames?: Record<string, string> }; consistent?: boolean; inFlight?: number } = {},
): Promise<Item[]> => {
  const distinct = [...new Map(keys.map((key) => [keyId(key), key])).values()];
  const found: Item[] = [];
  await mapConcurrent(chunked(distinct, GET_BATCH_SIZE), options.inFlight ?? 1, (chunk) =>
    untilTaken(chunk, async (pending) => {
      const answer = await doc.send(
        new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: options.consistent ?? true, ...options.projection } } }),
      );
      found.push(...((answer.Responses?.[tableName()] ?? []) as Item[]));
      return (answer.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Item[];
    }),
  );
  return found;
};

/**
 * Puts and deletes, 25 per BatchWriteItem, retrying `UnprocessedItems` with backoff until
 * every write landed (DESIGN §3). Only resolves when all are done; otherwise throws a 503
 * so the caller never answers 2xx for a partial write. Callers keep writes idempotent, so a
 * repeated request converges. `inFlight` requests at a time (default one).
 */
export const batchWrite = async (requests: readonly WriteRequest[], options: { inFlight?: number } = {}): Promise<void> => {
  await batchWriteWhile(requests, options);
};

/**
 * As `batchWrite`, but a request starts only while `proceed()` holds: answers which writes were
 * sent. Two writes of one key in a batch are refused by DynamoDB: the last one of a key wins.
 */
export const batchWriteWhile = async (
  requests: readonly WriteRequest[],
  { inFlight = 1, proceed = () => true }: { inFlight?: number; proceed?: () => boolean },
): Promise<boolean[]> => {
  const keyOf = (request: WriteRequest) => keyId('PutRequest' in request ? { PK: request.PutRequest.Item.PK, SK: request.PutRequest.Item.SK } : request.DeleteRequest.Key);
  const lastOfKey = new Map(requests.map((request, i) => [keyOf(request), i]));
  const kept = requests.flatMap((request, i) => (lastOfKey.get(keyOf(request)) === i ? [i] : []));
  const chunks = chunked(kept, BATCH_SIZE);
  const sent = await mapConcurrent(chunks, inFlight, async (chunk) => {
    if (!proceed()) return false;
    await untilTaken(
      chunk.map((i) => requests[i]!),
      async (pending) => {
        const { UnprocessedItems } = await doc.send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
        return (UnprocessedItems?.[tableName()] ?? []) as WriteRequest[];
      },
    );
    return true;
  });
  const sentOf = new Map(chunks.flatMap((chunk, c) => chunk.map((i) => [i, sent[c]!] as const)));
  return requests.map((request) => sentOf.get(lastOfKey.get(keyOf(request))!)!);
};

/** One UpdateItem on the table: the item's key, and the expressions as the SDK takes them. */
export const updateItem = (key: Item, input: Omit<UpdateCommandInput, 'TableName' | 'Key'>) =>
  doc.send(new UpdateCommand({ TableName: tableName(), Key: key, ...input }));

/** One DeleteItem on the table, usually conditional. */
export const deleteItem = (key: Item, input: Omit<DeleteCommandInput, 'TableName' | 'Key'> = {}) =>
  doc.send(new DeleteCommand({ TableName: tableName(), Key: key, ...input }));

/** Sets only the fields of `patch` (and bumps version, updatedAt) on an existing item; answers the new item. */
export const patchExisting = async (key: Item, patch: Item, missing: () => Error): Promise<Item> => {
  const { Attributes } = await whenExists(
    updateItem(key, { ...patchExpression(patch, new Date().toISOString()), ConditionExpression: 'attribute_exists(PK)', ReturnValues: 'ALL_NEW' }),
    missing,
  );
  return Attributes ?? {};
};

/**
 * The records of one partition, sorted by id: list (one Query), get, patch and delete, where an
 * unknown id is `notFound(id)` (a 404). Creating one is the repository's own (ids, defaults).
 */
export const partitionRecords = <Id, R, P extends Item>(
  partition: string,
  keys: (id: Id) => Item,
  fromItem: (item: Item) => R,
  notFound: (id: Id) => Error,
) => ({
  async list(): Promise<R[]> {
    return (await queryPartition(partition)).map(fromItem);
  },

  async get(id: Id): Promise<R> {
    const { Item: item } = await doc.send(new GetCommand({ TableName: tableName(), Key: keys(id) }));
    if (!item) throw notFound(id);
    return fromItem(item);
  },

  /** Sets only the fields given, in one conditional write: concurrent patches never undo each other. */
  async update(id: Id, patch: P): Promise<R> {
    return fromItem(await patchExisting(keys(id), patch, () => notFound(id)));
  },

  async remove(id: Id): Promise<void> {
    await deleteExisting(keys(id), () => notFound(id));
  },
});

/**
 * An item whose `expiresAt` (epoch seconds, the TTL attribute) has passed: absent to every reader,
 * since TTL deletes lazily, up to days later (DESIGN §3). An item without one never expires.
 */
export const hasExpired = (item: Item, nowSeconds = Math.floor(Date.now() / 1000)): boolean =>
  item.expiresAt !== undefined && Number(item.expiresAt) <= nowSeconds;
