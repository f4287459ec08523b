import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dynamo } from '#lib/store/client';
import { queryAll } from '#lib/store/query';
import { batchGet, batchWrite } from '#lib/store/table';

describe('batchWrite', () => {
  it('writes more items than one batch holds, then deletes them all', async () => {
    const pk = `BATCH#${randomUUID()}`;
    const keys = Array.from({ length: 60 }, (_, i) => ({ PK: pk, SK: `ITEM#${String(i).padStart(3, '0')}` }));
    await batchWrite(keys.map((key) => ({ PutRequest: { Item: { ...key, n: 1 } } })));
    const query = { pk };
    expect(await queryAll(query)).toHaveLength(60);

    await batchWrite(keys.map((Key) => ({ DeleteRequest: { Key } })));
    expect(await queryAll(query)).toHaveLength(0);
  });

  it('is a no-op for no writes', async () => {
    await expect(batchWrite([])).resolves.toBeUndefined();
  });
});

describe('batches under DynamoDB rules', () => {
  it('names each key once: the last write of a key in one call wins', async () => {
    const pk = `BATCH#${randomUUID()}`;
    await batchWrite([
      { PutRequest: { Item: { PK: pk, SK: 'A', n: 1 } } },
      { PutRequest: { Item: { PK: pk, SK: 'B', n: 1 } } },
      { PutRequest: { Item: { PK: pk, SK: 'A', n: 2 } } },
    ]);
    const items = await batchGet([{ PK: pk, SK: 'A' }, { PK: pk, SK: 'A' }, { PK: pk, SK: 'B' }]);
    expect(items.map((item) => [item.SK, item.n]).sort()).toEqual([['A', 2], ['B', 1]]);
  });

  it('keeps going while a throttled store takes part of each round, and fails (503) only once it takes nothing', async () => {
    const pk = `BATCH#${randomUUID()}`;
    // every request refused whole for 3 rounds, then half of each batch handed back unprocessed
    let refusals = 3;
    const name = `throttle-${pk}`;
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        if ((context as { commandName?: string }).commandName !== 'BatchWriteItemCommand') return next(args);
        if (refusals-- > 0) throw Object.assign(new Error('throughput exceeded'), { name: 'ProvisionedThroughputExceededException' });
        const input = args.input as { RequestItems: Record<string, unknown[]> };
        const [table, requests] = Object.entries(input.RequestItems)[0]!;
        const cut = Math.ceil(requests.length / 2);
        const result = await next({ ...args, input: { ...input, RequestItems: { [table]: requests.slice(0, cut) } } });
        const kept = requests.slice(cut);
        (result.output as { UnprocessedItems?: unknown }).UnprocessedItems = kept.length ? { [table]: kept } : {};
        return result;
      },
      { step: 'initialize', name },
    );
    try {
      await batchWrite(Array.from({ length: 25 }, (_, i) => ({ PutRequest: { Item: { PK: pk, SK: `I#${i}` } } })));
      expect(await queryAll({ pk })).toHaveLength(25);
      refusals = Number.POSITIVE_INFINITY;
      await expect(batchWrite([{ PutRequest: { Item: { PK: pk, SK: 'never' } } }])).rejects.toMatchObject({ statusCode: 503 });
    } finally {
      dynamo.middlewareStack.remove(name);
    }
  }, 60_000);
});
