import { randomUUID } from 'node:crypto';
import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { ensureTable } from '#lib/store/definition';
import { startFaithfulStore, type FaithfulStore } from '../support/faithful';

// The faithful mode's own behaviours, shown with a proxy of its own in front of the run's DynamoDB Local.
let faithful: FaithfulStore;
let doc: DynamoDBDocumentClient;
const TableName = `faithful-own-${randomUUID()}`;
const LAG = 400;

beforeAll(async () => {
  faithful = await startFaithfulStore(inject('storeEndpoint'), { lagMs: LAG, throttleRate: 0 });
  const client = new DynamoDBClient({ endpoint: faithful.endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, maxAttempts: 1 });
  await ensureTable(client, TableName);
  doc = DynamoDBDocumentClient.from(client);
});
afterAll(async () => {
  await faithful.close();
});

const byIndex = async (pk: string) =>
  (await doc.send(new QueryCommand({ TableName, IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': pk } }))).Items ?? [];
const refusal = (promise: Promise<unknown>) => promise.then(() => 'accepted', (error: Error) => error.name);

describe('the faithful store', () => {
  it('shows a new item in an index only after the lag, and in the table at once', async () => {
    await doc.send(new PutCommand({ TableName, Item: { PK: 'a', SK: '1', GSI1PK: 'idx-a', GSI1SK: '1', v: 1 } }));
    expect(await byIndex('idx-a')).toEqual([]);
    expect((await doc.send(new GetCommand({ TableName, Key: { PK: 'a', SK: '1' }, ConsistentRead: true }))).Item?.v).toBe(1);
    await faithful.settle();
    expect((await byIndex('idx-a')).map((i) => i.v)).toEqual([1]);
  });

  it('shows the previous version of an updated item within the lag', async () => {
    await doc.send(new PutCommand({ TableName, Item: { PK: 'b', SK: '1', GSI1PK: 'idx-b', GSI1SK: '1', v: 1 } }));
    await faithful.settle();
    await doc.send(new UpdateCommand({ TableName, Key: { PK: 'b', SK: '1' }, UpdateExpression: 'SET v = :v', ExpressionAttributeValues: { ':v': 2 } }));
    expect((await byIndex('idx-b')).map((i) => i.v)).toEqual([1]);
    await faithful.settle();
    expect((await byIndex('idx-b')).map((i) => i.v)).toEqual([2]);
  });

  it('still shows a deleted item in an index within the lag', async () => {
    await doc.send(new PutCommand({ TableName, Item: { PK: 'c', SK: '1', GSI1PK: 'idx-c', GSI1SK: '1' } }));
    await faithful.settle();
    await doc.send(new DeleteCommand({ TableName, Key: { PK: 'c', SK: '1' } }));
    expect(await byIndex('idx-c')).toHaveLength(1);
    await faithful.settle();
    expect(await byIndex('idx-c')).toEqual([]);
  });

  it('throttles single requests and hands part of a batch back unprocessed', async () => {
    faithful.configure({ throttleRate: 1 });
    try {
      expect(await refusal(doc.send(new PutCommand({ TableName, Item: { PK: 'd', SK: '1' } })))).toBe('ProvisionedThroughputExceededException');
      const answer = await doc.send(
        new BatchWriteCommand({ RequestItems: { [TableName]: Array.from({ length: 4 }, (_, i) => ({ PutRequest: { Item: { PK: 'e', SK: String(i) } } })) } }),
      );
      expect(answer.UnprocessedItems?.[TableName]).toHaveLength(2);
    } finally {
      faithful.configure({ throttleRate: 0 });
    }
    expect(faithful.stats.throttled).toBeGreaterThan(0);
    expect(faithful.stats.partial).toBeGreaterThan(0);
  });

  it('refuses what DynamoDB refuses, whatever the engine behind it checks', async () => {
    const put = (Item: Record<string, unknown>) => refusal(doc.send(new PutCommand({ TableName, Item })));
    expect(await put({ PK: 'f', SK: '1', GSI1PK: '', GSI1SK: 'x' })).toBe('ValidationException');
    expect(await put({ PK: 'f', SK: '2', GSI1PK: 'p', GSI1SK: 'x'.repeat(1025) })).toBe('ValidationException');
    expect(await put({ PK: 'f', SK: '3', GSI1PK: 'é'.repeat(1025), GSI1SK: 'x' })).toBe('ValidationException');
    expect(await put({ PK: 'f', SK: '4', blob: 'é'.repeat(210_000) })).toBe('ValidationException');
    expect(await put({ PK: 'f', SK: '5', GSI1PK: 'p', GSI1SK: 'x'.repeat(1024) })).toBe('accepted');
    const update = (value: string) =>
      refusal(doc.send(new UpdateCommand({ TableName, Key: { PK: 'f', SK: '6' }, UpdateExpression: 'SET #k = :k', ExpressionAttributeNames: { '#k': 'GSI2SK' }, ExpressionAttributeValues: { ':k': value } })));
    expect(await update('')).toBe('ValidationException');
    expect(await update('ok')).toBe('accepted');
    const long = Array.from({ length: 900 }, (_, i) => `#a${i}`).join(', ');
    const names = Object.fromEntries(Array.from({ length: 900 }, (_, i) => [`#a${i}`, `a${i}`]));
    expect(await refusal(doc.send(new UpdateCommand({ TableName, Key: { PK: 'f', SK: '6' }, UpdateExpression: `REMOVE ${long}`, ExpressionAttributeNames: names })))).toBe('ValidationException');
    expect(
      await refusal(doc.send(new QueryCommand({ TableName, IndexName: 'GSI1', ConsistentRead: true, KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': 'p' } }))),
    ).toBe('ValidationException');
  });

  describe('transactions', () => {
    const item = (PK: string, v = 1) => ({ PK, SK: '1', GSI1PK: `idx-${PK}`, GSI1SK: '1', v });
    const stored = async (PK: string) => (await doc.send(new GetCommand({ TableName, Key: { PK, SK: '1' }, ConsistentRead: true }))).Item;
    const reasonsOf = (promise: Promise<unknown>) =>
      promise.then(
        () => ['committed'],
        (error: unknown) => (error instanceof TransactionCanceledException ? (error.CancellationReasons ?? []).map((r) => r.Code) : [String(error)]),
      );
    const putBoth = (a: string, b: string) => doc.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName, Item: item(a) } }, { Put: { TableName, Item: item(b) } }] }));

    it('show every item a committed transaction writes in the indexes after the lag, like single writes', async () => {
      await putBoth('t1', 't2');
      expect(await stored('t1')).toMatchObject({ v: 1 });
      expect(await byIndex('idx-t1')).toEqual([]);
      expect(await byIndex('idx-t2')).toEqual([]);
      await faithful.settle();
      expect(await byIndex('idx-t1')).toHaveLength(1);
      expect(await byIndex('idx-t2')).toHaveLength(1);

      await doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Update: { TableName, Key: { PK: 't1', SK: '1' }, UpdateExpression: 'SET v = :v', ExpressionAttributeValues: { ':v': 2 } } },
            { Delete: { TableName, Key: { PK: 't2', SK: '1' } } },
          ],
        }),
      );
      expect((await byIndex('idx-t1')).map((i) => i.v)).toEqual([1]);
      expect(await byIndex('idx-t2')).toHaveLength(1);
      await faithful.settle();
      expect((await byIndex('idx-t1')).map((i) => i.v)).toEqual([2]);
      expect(await byIndex('idx-t2')).toEqual([]);
    });

    it('fail whole when throttled: cancelled with ThrottlingError, nothing written', async () => {
      faithful.configure({ throttleRate: 1 });
      let reasons: (string | undefined)[];
      try {
        reasons = await reasonsOf(putBoth('t3', 't4'));
      } finally {
        faithful.configure({ throttleRate: 0 });
      }
      expect(reasons).toHaveLength(2);
      expect(reasons).toContain('ThrottlingError');
      expect(await stored('t3')).toBeUndefined();
      expect(await stored('t4')).toBeUndefined();
    });

    it('are cancelled by a conflict at the configured rate, writing nothing', async () => {
      const before = faithful.stats.conflicts;
      faithful.configure({ conflictRate: 1 });
      let reasons: (string | undefined)[];
      try {
        reasons = await reasonsOf(putBoth('t5', 't6'));
      } finally {
        faithful.configure({ conflictRate: 0 });
      }
      expect(reasons).toContain('TransactionConflict');
      expect(faithful.stats.conflicts).toBe(before + 1);
      expect(await stored('t5')).toBeUndefined();
      expect(await reasonsOf(putBoth('t5', 't6'))).toEqual(['committed']);
      expect(await stored('t6')).toMatchObject({ v: 1 });
    });

    it('are cancelled whole when one item breaks an index key limit, or a condition fails in the engine', async () => {
      const reasons = await reasonsOf(doc.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName, Item: item('t7') } }, { Put: { TableName, Item: { ...item('t8'), GSI1SK: 'x'.repeat(1025) } } }] })));
      expect(reasons).toEqual(['None', 'ValidationError']);
      expect(await stored('t7')).toBeUndefined();

      const conditional = await reasonsOf(
        doc.send(
          new TransactWriteCommand({
            TransactItems: [{ Put: { TableName, Item: item('t9') } }, { ConditionCheck: { TableName, Key: { PK: 'nowhere', SK: '1' }, ConditionExpression: 'attribute_exists(PK)' } }],
          }),
        ),
      );
      expect(conditional).toEqual(['None', 'ConditionalCheckFailed']);
      expect(await stored('t9')).toBeUndefined();
    });
  });
});
