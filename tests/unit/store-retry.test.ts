import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientOptions } from '#lib/store/client';
import { OTHER_ATTEMPTS, retryDelay, THROTTLED_ATTEMPTS } from '#lib/store/retry';

// A store that refuses the first `refusals` requests with `answer`, then answers every one.
let server: Server;
let endpoint: string;
let refusals = 0;
let answer = { status: 400, type: 'ProvisionedThroughputExceededException' };
let requests = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.once('end', () => {
      requests++;
      const headers = { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'r' };
      if (refusals-- > 0) {
        res.writeHead(answer.status, headers);
        res.end(JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${answer.type}`, message: 'refused' }));
        return;
      }
      res.writeHead(200, headers);
      res.end('{}');
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((closed) => server.close(closed)));

const get = async () => {
  const client = new DynamoDBClient({ ...clientOptions, endpoint, region: 'us-east-1', credentials: { accessKeyId: 'k', secretAccessKey: 's' } });
  try {
    await client.send(new GetItemCommand({ TableName: 't', Key: { PK: { S: 'k' }, SK: { S: 'x' } } }));
    return 'answered';
  } catch (error) {
    return (error as Error).name;
  } finally {
    client.destroy();
  }
};

describe('the store client under throttling (DESIGN §3)', () => {
  it('retries a throttled call until THROTTLED_ATTEMPTS, then gives up', async () => {
    answer = { status: 400, type: 'ProvisionedThroughputExceededException' };
    [refusals, requests] = [THROTTLED_ATTEMPTS - 1, 0];
    expect(await get()).toBe('answered');
    expect(requests).toBe(THROTTLED_ATTEMPTS);
    [refusals, requests] = [THROTTLED_ATTEMPTS, 0];
    expect(await get()).toBe('ProvisionedThroughputExceededException');
    expect(requests).toBe(THROTTLED_ATTEMPTS);
  }, 60_000);

  it('retries other failures only OTHER_ATTEMPTS times, so a failing store answers a request path quickly', async () => {
    answer = { status: 500, type: 'InternalServerError' };
    [refusals, requests] = [10, 0];
    expect(await get()).toBe('InternalServerError');
    expect(requests).toBe(OTHER_ATTEMPTS);
    refusals = 0;
  }, 30_000);

  it('waits a jittered pause under a capped exponential', () => {
    expect(retryDelay(1, () => 1)).toBe(200);
    expect(retryDelay(5, () => 1)).toBe(3_000);
    expect(retryDelay(5, () => 0)).toBe(0);
  });
});
