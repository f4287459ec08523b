import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientOptions } from '#lib/store/client';

// A store that answers every request after SLOW_MS, as a starved or distant one does.
const SLOW_MS = 1_500;
let server: Server;
let endpoint: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.once('end', () =>
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'slow' });
        res.end('{}');
      }, SLOW_MS),
    );
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((closed) => server.close(closed)));

describe('the store client', () => {
  it('keeps 200 requests in flight against a slow store without timing out any while it waits for a socket', async () => {
    const client = new DynamoDBClient({ ...clientOptions, maxAttempts: 1, endpoint, region: 'us-east-1', credentials: { accessKeyId: 'k', secretAccessKey: 's' } });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => client.send(new GetItemCommand({ TableName: 't', Key: { PK: { S: `k${i}` }, SK: { S: 'x' } } }))),
    );
    client.destroy();
    const failed = outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason as Error);
    expect(failed.map((e) => e.name)).toEqual([]);
  });
});
