import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { batchWrite, queryAll } from '#lib/db/helpers';

describe('batchWrite', () => {
  it('writes more items than one batch holds, then deletes them all', async () => {
    const pk = `BATCH#${randomUUID()}`;
    const keys = Array.from({ length: 60 }, (_, i) => ({ PK: pk, SK: `ITEM#${String(i).padStart(3, '0')}` }));
    await batchWrite(keys.map((key) => ({ PutRequest: { Item: { ...key, n: 1 } } })));
    const query = { KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': pk } };
    expect(await queryAll(query)).toHaveLength(60);

    await batchWrite(keys.map((Key) => ({ DeleteRequest: { Key } })));
    expect(await queryAll(query)).toHaveLength(0);
  });

  it('is a no-op for no writes', async () => {
    await expect(batchWrite([])).resolves.toBeUndefined();
  });
});
