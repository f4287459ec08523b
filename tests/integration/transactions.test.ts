import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import * as audit from '#lib/access/audit/repository';
import * as watchers from '#lib/watchers/repository';
import { Conflict } from '#lib/shared/errors';
import { dynamo } from '#lib/store/client';
import { get } from '#lib/store/table';
import { CONFLICT_ATTEMPTS, transact, TRANSACTION_MAX_ACTIONS } from '#lib/store/transaction';
import { handler as createChannel } from '../../functions/channels/create';
import { handler as removeChannel } from '../../functions/channels/remove';
import { handler as createWatcher } from '../../functions/watchers/create';
import { apiEvent, jsonEvent, lambdaContext } from '../support/events';

/*
 * Writes that land whole (lib/store/transaction.ts; docs/adr/0550): the limits checked before
 * sending, a cancellation answered by reason, conflicts retried; and what they replaced: a watcher
 * naming a channel deleted meanwhile is refused whole (docs/guide/rules/notify.md "A watcher never names a deleted channel, even in a race"), nothing to undo.
 */
const tag = randomUUID().slice(0, 8);
const key = (name: string) => ({ PK: `TXTEST#${tag}`, SK: name });

/** Cancels the next `times` transactions the way DynamoDB does when another transaction holds an item. */
const conflicting = (times: number) => {
  let left = times;
  let seen = 0;
  const name = `conflict-${randomUUID()}`;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      if ((context as { commandName?: string }).commandName !== 'TransactWriteItemsCommand') return next(args);
      seen++;
      if (left-- > 0) {
        throw new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }] });
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  return { seen: () => seen, done: () => dynamo.middlewareStack.remove(name) };
};

describe('transactions', () => {
  it('write all their actions, or none when one condition fails, naming which', async () => {
    expect(await transact([{ put: { ...key('a'), n: 1 } }, { put: { ...key('b'), n: 1 } }])).toEqual({ held: true });
    const refused = await transact([{ update: key('a'), change: { set: { n: 2 } } }, { put: { ...key('b'), n: 2 }, condition: 'attribute_not_exists(PK)' }]);
    expect(refused).toEqual({ held: false, failed: [1] });
    expect((await get(key('a'), { consistent: true }))?.n).toBe(1);
  });

  it('refuses before sending more than 100 actions, or two actions on one item', async () => {
    const many = Array.from({ length: TRANSACTION_MAX_ACTIONS + 1 }, (_, i) => ({ put: { ...key(`many-${i}`) } }));
    await expect(transact(many)).rejects.toThrow(/1 to 100 actions/);
    await expect(transact([{ put: key('same') }, { remove: key('same') }])).rejects.toThrow(/once only/);
    expect(await get(key('many-0'), { consistent: true })).toBeUndefined();
  });

  it('retries a transaction that conflicted with another, and lands it', async () => {
    const conflict = conflicting(2);
    try {
      expect(await transact([{ put: { ...key('c'), n: 1 } }, { put: { ...key('d'), n: 1 } }])).toEqual({ held: true });
      expect(conflict.seen()).toBe(3);
      expect((await get(key('d'), { consistent: true }))?.n).toBe(1);
    } finally {
      conflict.done();
    }
  });

  it('answers a conflict that lasts as 409, having written nothing', async () => {
    const conflict = conflicting(CONFLICT_ATTEMPTS);
    try {
      await expect(transact([{ put: { ...key('e'), n: 1 } }, { put: { ...key('f'), n: 1 } }])).rejects.toBeInstanceOf(Conflict);
      expect(conflict.seen()).toBe(CONFLICT_ATTEMPTS);
      expect(await get(key('e'), { consistent: true })).toBeUndefined();
    } finally {
      conflict.done();
    }
  });
});

describe('a watcher naming a channel deleted between its check and its write', () => {
  const rule = (channelIds: string[]) => ({
    user: 'probe',
    dashboard: `tx-${tag}`,
    service: 'video',
    type: 'offline',
    allDevices: false,
    devicesId: [`tx-${tag}`],
    severity: 3,
    sendEmail: false,
    operations: { type: 'device', operatorType: 'AND', conditions: [{ element: 'status.connected', operator: '==', value: 'false' }] },
    channelIds,
  });

  it('is refused whole (400): no watcher, no audit record, nothing undone', async () => {
    const made = await createChannel(jsonEvent({ name: `tx ${tag}`, type: 'email', emails: [`tx-${tag}@example.com`] }, { httpMethod: 'POST', resource: '/channels' }), lambdaContext());
    const channel = (JSON.parse(made.body) as { id: string }).id;
    const before = new Set((await watchers.list()).map((watcher) => watcher.id));
    // the channel is deleted once the watcher's checks passed, just before its write goes out
    const name = `delete-first-${tag}`;
    let writes = 0;
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        if ((context as { commandName?: string }).commandName === 'TransactWriteItemsCommand' && writes++ === 0) {
          const deleted = await removeChannel(apiEvent({ httpMethod: 'DELETE', resource: '/channels/{id}', pathParameters: { id: channel } }), lambdaContext());
          expect(deleted.statusCode).toBe(200);
        }
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      const created = await createWatcher(jsonEvent(rule([channel]), { httpMethod: 'POST', resource: '/watcher' }), lambdaContext());
      expect({ status: created.statusCode, body: created.body }).toMatchObject({ status: 400, body: expect.stringContaining(channel) });
    } finally {
      dynamo.middlewareStack.remove(name);
    }
    expect((await watchers.list()).filter((watcher) => !before.has(watcher.id))).toEqual([]);
    expect((await audit.query({ targetType: 'watcher', action: 'POST /watcher' }, 50)).items).toEqual([]);
    // and it stays refused: the channel is gone
    const again = await createWatcher(jsonEvent(rule([channel]), { httpMethod: 'POST', resource: '/watcher' }), lambdaContext());
    expect(again.statusCode).toBe(400);
  });
});
