import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, ServiceUnavailable } from '#lib/shared/errors';
import { mapConcurrent } from '#lib/shared/concurrency';
import { pause } from '#lib/shared/deadline';
import { doc, tableName } from './client';
import { atVersion, compile, expr, projection, updateOf, type Change, type Expr, type Item } from './expression';
import { pendingCompanion, withCompanion } from './transaction';

// The typed operations on the one table; a condition that did not hold is an answer, never an exception.
export type { Item } from './expression';
export type Returns = 'ALL_NEW' | 'UPDATED_NEW' | 'ALL_OLD' | 'UPDATED_OLD';
export type Key = { PK: string; SK: string; [attribute: string]: unknown };

/** Sends a conditional write: true when it landed, false when its condition did not hold. */
const conditionHeld = async (write: Promise<unknown>): Promise<boolean> => (await held(write)) !== undefined;

/** The write's answer, or undefined when its condition did not hold. */
const held = async <T>(write: Promise<T>): Promise<T | undefined> => {
  try {
    return await write;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
};

/** The answer of a conditional operation, or `fail()` thrown when its condition did not hold. */
export const must = async <T>(answer: Promise<T | undefined | false>, fail: () => Error): Promise<T> => {
  const value = await answer;
  if (value === undefined || value === false) throw fail();
  return value;
};

/** What a write whose condition failed unforeseen answers: a 409, as the error handler answers the store's own exception. */
export const changedMeanwhile = (): Error => new Conflict('The record was changed by another request; retry');

/** Zero-padded so that numeric ids sort as numbers inside a sort key. */
export const padId = (id: number): string => String(id).padStart(15, '0');

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Past its `expiresAt` (TTL, epoch s): absent to readers, TTL deletes lazily (DESIGN §3). */
export const hasExpired = (item: Item): boolean => item.expiresAt !== undefined && Number(item.expiresAt) <= nowSeconds();

export interface ReadOptions {
  consistent?: boolean;
  project?: readonly string[];
}

/** A request on the item at `key`: its expressions compiled, then `options`. */
const onKey = (key: Key, expressions: Parameters<typeof compile>[0], options: Item = {}) => ({ TableName: tableName(), Key: key, ...compile(expressions), ...options });

export const get = async (key: Key, { consistent, project }: ReadOptions = {}): Promise<Item | undefined> =>
  (await doc.send(new GetCommand(onKey(key, { ProjectionExpression: project && projection(project) }, consistent ? { ConsistentRead: true } : {})))).Item;

/** PutItem; false when `condition` did not hold. */
export const put = (item: Item, condition?: Expr | string): Promise<boolean> => {
  const companion = pendingCompanion();
  if (companion) return withCompanion({ put: item, condition });
  return conditionHeld(doc.send(new PutCommand({ TableName: tableName(), Item: item, ...compile({ ConditionExpression: condition }) })));
};

/** `attribute_not_exists(PK)`: the creation of a new item. */
export const NEW = 'attribute_not_exists(PK)';
/** Still as read at `version`, or still absent when read absent (version 0). */
export const asRead = (version: number): Expr | string => (version > 0 ? atVersion(version) : NEW);
/** Not past its `expiresAt`, or without one. */
export const unexpired = (): Expr => expr('attribute_not_exists(#expiresAt) OR #expiresAt > :now', { now: nowSeconds() });
/** `attribute_exists(PK)`: a change of an existing item. */
export const EXISTS = 'attribute_exists(PK)';

/** UpdateItem: the item as `returns` asks (`{}` without), undefined when `condition` did not hold. */
export const update = async (key: Key, change: Change | Expr, condition?: Expr | string, returns?: Returns): Promise<Item | undefined> => {
  const UpdateExpression = 'expression' in change ? (change as Expr) : updateOf(change as Change);
  // a transaction answers no values: the item as it stands just after (ALL_NEW) is read by key, consistently
  const companion = returns === undefined || returns === 'ALL_NEW' ? pendingCompanion() : undefined;
  if (companion) {
    if (!(await withCompanion({ update: key, change: UpdateExpression, condition }))) return undefined;
    return returns ? ((await get(key, { consistent: true })) ?? {}) : {};
  }
  const answer = await held(doc.send(new UpdateCommand(onKey(key, { UpdateExpression, ConditionExpression: condition }, returns ? { ReturnValues: returns } : {}))));
  return answer && (answer.Attributes ?? {});
};

const deleteCommand = (key: Key, condition?: Expr | string, returnOld = false) =>
  doc.send(new DeleteCommand(onKey(key, { ConditionExpression: condition }, returnOld ? { ReturnValues: 'ALL_OLD' } : {})));

/** DeleteItem; false when `condition` did not hold. */
export const remove = (key: Key, condition?: Expr | string): Promise<boolean> => {
  const companion = pendingCompanion();
  return companion ? withCompanion({ remove: key, condition }) : conditionHeld(deleteCommand(key, condition));
};

/** DeleteItem answering the item it deleted: undefined when there was none, or `condition` did not hold. */
export const take = async (key: Key, condition?: Expr | string): Promise<Item | undefined> => (await held(deleteCommand(key, condition, true)))?.Attributes;

type WriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: Item } };

export const BATCH_SIZE = 25;
/** Keys one BatchGetItem may name. */
const GET_BATCH_SIZE = 100;
/** A batch gives up after this many rounds in a row that the store took none of, so a store that keeps refusing cannot hold its caller past its budget (DESIGN §3). */
const MAX_IDLE_ROUNDS = 10;
/** Backoff between rounds: capped exponential, full jitter (the store sheds load, we spread out). */
const BACKOFF_BASE_MS = 50;
const BACKOFF_CAP_MS = 2_000;
const backoff = (round: number): number => Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** round);

export const chunked = <T>(list: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

/** A whole batch refused for throughput (DynamoDB throttles every item of it): a round that took nothing. */
const THROTTLED = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);
const throttled = (error: unknown): boolean => error instanceof Error && THROTTLED.has(error.name);

/** Sends `pending` in rounds until all is taken, backing off; 503 after MAX_IDLE_ROUNDS rounds that took nothing (docs/adr/0174). */
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

/** The items at `keys`: BatchGetItem of distinct keys, `inFlight` at a time, consistent unless said (docs/adr/0174). */
export const batchGet = async (keys: readonly Item[], options: { project?: readonly string[]; consistent?: boolean; inFlight?: number } = {}): Promise<Item[]> => {
  const distinct = [...new Map(keys.map((key) => [keyId(key), key])).values()];
  const found: Item[] = [];
  await mapConcurrent(chunked(distinct, GET_BATCH_SIZE), options.inFlight ?? 1, (chunk) =>
    untilTaken(chunk, async (pending) => {
      const request = { Keys: pending, ConsistentRead: options.consistent ?? true, ...compile({ ProjectionExpression: options.project && projection(options.project) }) };
      const answer = await doc.send(new BatchGetCommand({ RequestItems: { [tableName()]: request } }));
      found.push(...(answer.Responses?.[tableName()] ?? []));
      return (answer.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Item[];
    }),
  );
  return found;
};

/** Puts and deletes in batches until all landed, or a 503 (never a 2xx for a partial write; docs/adr/0174). */
export const batchWrite = async (requests: readonly WriteRequest[], options: { inFlight?: number } = {}): Promise<void> => {
  await batchWriteWhile(requests, options);
};

/** As `batchWrite`, starting requests only while `proceed()` holds; answers which were sent. The last write of a key wins. */
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

export const putRequest = (item: Item): WriteRequest => ({ PutRequest: { Item: item } });
export const deleteRequest = (key: Key): WriteRequest => ({ DeleteRequest: { Key: key } });
