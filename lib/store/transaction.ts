import { AsyncLocalStorage } from 'node:async_hooks';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '#lib/shared/errors';
import { pause } from '#lib/shared/deadline';
import { doc, tableName } from './client';
import { compile, updateOf, type Change, type Expr, type Item } from './expression';
import { retryDelay, THROTTLED_ATTEMPTS } from './retry';

/*
 * Writes that land whole or not at all: TransactWriteItems, built from the same actions as the
 * single-item writes of ./table.ts (docs/adr/0550). Its limits are checked before it is sent (100
 * actions, 4 MB, one action per item), a cancelled transaction is answered by reason: a condition
 * that did not hold is an answer (the indices of the actions whose condition failed), a conflict
 * with another transaction and a throttled action are retried with capped, jittered backoff, then
 * a 409 (a race, never a 5xx) or the store's own throttling error (a 503, as every throttled call).
 * Twice the write units of the same writes sent alone: hot paths keep single-item writes.
 */

type Key = { PK: string; SK: string; [attribute: string]: unknown };
type Condition = Expr | string;

export type Action =
  | { put: Item; condition?: Condition }
  | { update: Key; change: Change | Expr; condition?: Condition }
  | { remove: Key; condition?: Condition }
  | { check: Key; condition: Condition };

export const TRANSACTION_MAX_ACTIONS = 100;
export const TRANSACTION_MAX_BYTES = 4 * 1024 * 1024;
/** Rounds a transaction is sent while it only conflicts with others (each after a jittered pause). */
export const CONFLICT_ATTEMPTS = 6;

/** The answer: every action landed, or none did because the conditions of `failed` (indices) did not hold. */
export type Outcome = { held: true } | { held: false; failed: number[] };

const keyOf = (action: Action): Key => ('put' in action ? { PK: String(action.put.PK), SK: String(action.put.SK) } : 'update' in action ? action.update : 'remove' in action ? action.remove : action.check);
const keyText = (key: Key): string => `${key.PK}\u0000${key.SK}`;

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const request = (action: Action): TransactItem => {
  const TableName = tableName();
  if ('put' in action) return { Put: { TableName, Item: action.put, ...compile({ ConditionExpression: action.condition }) } };
  if ('remove' in action) return { Delete: { TableName, Key: keyOf(action), ...compile({ ConditionExpression: action.condition }) } };
  if ('check' in action) return { ConditionCheck: { TableName, Key: keyOf(action), ConditionExpression: '', ...compile({ ConditionExpression: action.condition }) } };
  const UpdateExpression = 'expression' in action.change ? (action.change as Expr) : updateOf(action.change as Change);
  return { Update: { TableName, Key: keyOf(action), UpdateExpression: '', ...compile({ UpdateExpression, ConditionExpression: action.condition }) } };
};

/** Refuses, before sending, what DynamoDB would refuse as a whole: too many actions, too many bytes, one item twice. */
export const checkLimits = (actions: readonly Action[]): void => {
  if (actions.length === 0 || actions.length > TRANSACTION_MAX_ACTIONS) throw new Error(`a transaction holds 1 to ${TRANSACTION_MAX_ACTIONS} actions, not ${actions.length}`);
  const keys = new Set(actions.map((action) => keyText(keyOf(action))));
  if (keys.size < actions.length) throw new Error('a transaction may act on an item once only');
  const bytes = Buffer.byteLength(JSON.stringify(actions));
  if (bytes > TRANSACTION_MAX_BYTES) throw new Error(`a transaction carries at most 4 MB, not ${bytes} bytes`);
};

const reasonsOf = (error: TransactionCanceledException): string[] => (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');

/** Sends `actions` as one transaction as they are, with no companion. */
const send = async (actions: readonly Action[]): Promise<Outcome> => {
  checkLimits(actions);
  const TransactItems = actions.map(request);
  for (let attempt = 1; ; attempt++) {
    try {
      await doc.send(new TransactWriteCommand({ TransactItems }));
      return { held: true };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = reasonsOf(error);
      const failed = reasons.flatMap((code, i) => (code === 'ConditionalCheckFailed' ? [i] : []));
      if (failed.length > 0) return { held: false, failed };
      const conflict = reasons.includes('TransactionConflict');
      const throttled = reasons.some((code) => code === 'ThrottlingError' || code === 'ProvisionedThroughputExceeded');
      if (!conflict && !throttled) throw error;
      if (attempt >= (throttled ? THROTTLED_ATTEMPTS : CONFLICT_ATTEMPTS)) {
        if (conflict) throw new Conflict('The record is being changed by another request; retry');
        throw Object.assign(new Error(`transaction throttled: ${reasons.join(', ')}`), { name: 'ThrottlingException' });
      }
      await pause(retryDelay(attempt));
    }
  }
};

/**
 * Sends `actions` as one transaction (docs/adr/0550); see the module's header for the answers.
 * Inside `alongside`, the pending companion's actions ride on it (after `actions`, whose indices
 * `failed` names).
 */
export const transact = async (actions: readonly Action[]): Promise<Outcome> => {
  const companion = pendingCompanion();
  if (!companion) return send(actions);
  const outcome = await send([...actions, ...companion.actions()]);
  if (outcome.held) {
    companion.spent = true;
    return outcome;
  }
  if (outcome.failed.some((i) => i >= actions.length)) throw new Error('a companion write of a transaction failed its condition');
  return outcome;
};

/** As `transact`, answering only whether it held (any failed condition: false). */
export const transactHeld = async (actions: readonly Action[]): Promise<boolean> => (await transact(actions)).held;

/*
 * A companion: writes that must land together with the change a piece of code makes, without
 * that code knowing them (the audit record of a request, lib/http/index.ts). Inside `alongside`,
 * the first single-item write of ./table.ts that is not marked `apart` is sent as a transaction
 * with the companion's actions; once one landed, the companion is spent. Writes that prepare a
 * change rather than make it (a queue entry, a cap's place, a count, a claim) run `apart`.
 */
interface Companion {
  actions: () => Action[];
  spent: boolean;
}
const companions = new AsyncLocalStorage<Companion | undefined>();

/** Runs `work` with `actions` riding on its first write; `spent()` tells whether they were written. */
export const alongside = async <T>(actions: () => Action[], work: () => Promise<T>): Promise<{ value: T; spent: boolean }> => {
  const companion: Companion = { actions, spent: false };
  const value = await companions.run(companion, work);
  return { value, spent: companion.spent };
};

/** Runs `work` with no companion: its writes prepare the change, they are not it. */
export const apart = <T>(work: () => Promise<T>): Promise<T> => companions.run(undefined, work);

/** The companion a write made now should carry, if any. */
export const pendingCompanion = (): Companion | undefined => {
  const companion = companions.getStore();
  return companion && !companion.spent ? companion : undefined;
};

/** Sends `action` with the pending companion: true when all landed, false when its condition did not hold (then nothing did). */
export const withCompanion = async (action: Action): Promise<boolean> => (await transact([action])).held;
