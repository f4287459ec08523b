import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStore, type LocalStore } from '../../scripts/local/dynamo';
import { ensureTable } from '#lib/db/table';
import { startFaithfulStore, type FaithfulStore } from '../support/faithful';

// The faithful mode's own behaviours, each shown against a store of its own.
let store: LocalStore;
let faithful: FaithfulStore;
let doc: DynamoDBDocumentClient;
const TableName = 'faithful-own';
const LAG = 400;

beforeAll(async () => {
  store = await startLocalStore();
  faithful = await startFaithfulStore(store.endpoint, { lagMs: LAG, throttleRate: 0 });
  const client = new DynamoDBClient({ endpoint: faithful.endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, maxAttempts: 1 });
  await ensureTable(client, TableName);
  doc = DynamoDBDocumentClient.from(client);
});
afterAll(async () => {
  await faithful.close();
  await store.close();
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

  it('refuses what DynamoDB refuses and dynalite takes', async () => {
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
});
