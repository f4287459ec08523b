import { DescribeTableCommand, DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { startLocalStore } from '../../scripts/local/dynamo';
import { localTableName } from '../../scripts/local/env';
import { stillFleetEnv } from '../../scripts/local/instance';
import { instanceOn } from '../support/instance';

/*
 * `npm start` against a store it did not start (issue 23 deliverable 3): DYNAMODB_ENDPOINT names
 * it (here a DynamoDB Local this test runs apart, standing in for one the user runs, LocalStack or an AWS
 * table); the table is ensured there, the demo fleet synced into it, and the API answers from it.
 */
const KEY = 'external-store-e2e-api-key';
const own = instanceOn(
  '.esbuild-e2e-external',
  startLocalStore,
  (store) => ({ ...stillFleetEnv, API_KEY: KEY, DYNAMODB_ENDPOINT: store.endpoint, SEED_DEVICES: '20', PASSWORD_SCRYPT_LOG_N: '14' }),
  400_000,
);

describe('npm start with DYNAMODB_ENDPOINT', () => {
  it('uses that store instead of starting its own, ensures the table there, and answers from it', async () => {
    const { instance, needs: store } = own;
    expect(instance.storeEndpoint).toBe(store.endpoint);
    const client = new DynamoDBClient({ endpoint: store.endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
    const { Table } = await client.send(new DescribeTableCommand({ TableName: localTableName() }));
    expect(Table?.TableStatus).toBe('ACTIVE');
    // the demo fleet and the first admin went there (a whole-table count is fine in a test)
    const { Count = 0 } = await client.send(new ScanCommand({ TableName: localTableName(), Select: 'COUNT' }));
    expect(Count).toBeGreaterThan(20);
    client.destroy();

    const answer = await fetch(`${instance.url}/videoDevice/all/totalDevices`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ regionName: 'all', locationName: 'all', roomName: 'all' }),
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual([20]);
  });
});
