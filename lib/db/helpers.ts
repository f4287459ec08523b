import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
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
import { doc, tableName } from './client';

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
const MAX_BATCH_ATTEMPTS = 8;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Puts and deletes, 25 per BatchWriteItem, retrying `UnprocessedItems` with backoff until
 * every write landed (DESIGN §3). Only resolves when all are done; otherwise throws a 503
 * so the caller never answers 2xx for a partial write. Callers keep writes idempotent, so a
 * repeated request converges. `inFlight` requests at a time (default one).
 */
export const batchWrite = async (requests: readonly WriteRequest[], options: { inFlight?: number } = {}): Promise<void> => {
  await batchWriteWhile(requests, options);
};

/** As `batchWrite`, but a request starts only while `proceed()` holds: answers which writes were sent. */
export const batchWriteWhile = async (
  requests: readonly WriteRequest[],
  { inFlight = 1, proceed = () => true }: { inFlight?: number; proceed?: () => boolean },
): Promise<boolean[]> => {
  const chunks = Array.from({ length: Math.ceil(requests.length / BATCH_SIZE) }, (_, i) => requests.slice(i * BATCH_SIZE, (i + 1) * BATCH_SIZE));
  const sent = await mapConcurrent(chunks, inFlight, async (chunk) => {
    if (!proceed()) return false;
    let pending = chunk as WriteRequest[];
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > MAX_BATCH_ATTEMPTS) {
        throw new ServiceUnavailable(`${pending.length} writes were not accepted by the store; retry the request`);
      }
      if (attempt > 1) await pause(Math.min(1000, 25 * 2 ** attempt));
      const { UnprocessedItems } = await doc.send(
        new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }),
      );
      pending = (UnprocessedItems?.[tableName()] ?? []) as WriteRequest[];
    }
    return true;
  });
  return requests.map((_, i) => sent[Math.floor(i / BATCH_SIZE)]!);
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
