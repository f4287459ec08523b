import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureTable } from '#lib/db/table';
import { startLocalStore } from '../../scripts/local/dynamo';

const dir = mkdtempSync(join(tmpdir(), 'store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const clientFor = (endpoint: string) =>
  new DynamoDBClient({ endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });

describe('embedded store (npm start)', () => {
  it('keeps data on disk across a restart', async () => {
    const first = await startLocalStore({ path: dir });
    const client = clientFor(first.endpoint);
    await ensureTable(client, 'persist');
    await DynamoDBDocumentClient.from(client).send(new PutCommand({ TableName: 'persist', Item: { PK: 'a', SK: 'b', v: 42 } }));
    client.destroy();
    await first.close();

    const second = await startLocalStore({ path: dir });
    const again = clientFor(second.endpoint);
    const { created } = await ensureTable(again, 'persist');
    const { Item } = await DynamoDBDocumentClient.from(again).send(new GetCommand({ TableName: 'persist', Key: { PK: 'a', SK: 'b' } }));
    again.destroy();
    await second.close();

    expect(created).toBe(false);
    expect(Item?.v).toBe(42);
  });
});
