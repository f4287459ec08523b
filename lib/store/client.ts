import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { traced } from '#lib/shared/tracing';
import { deadlineBound } from './deadlineHandler';
import { storeRetryStrategy } from './retry';

// Built once per container; bounded waits, 256 sockets (docs/guide/rules/store.md "The store client keeps 256 sockets"), retries by kind (./retry.ts).
export const clientOptions = {
  retryStrategy: storeRetryStrategy,
  requestHandler: { connectionTimeout: 1_000, requestTimeout: 3_000, httpAgent: { maxSockets: 256 }, httpsAgent: { maxSockets: 256 } },
};

// No request after a run's deadline (docs/adr/0185, ./deadlineHandler.ts).
const client = new DynamoDBClient(clientOptions);
client.config.requestHandler = deadlineBound(client.config.requestHandler);
export const dynamo = traced(client);

export const doc = DynamoDBDocumentClient.from(dynamo, {
  marshallOptions: { removeUndefinedValues: true },
});

export const tableName = (): string => {
  const name = process.env.TABLE_NAME;
  if (!name) throw new Error('TABLE_NAME is not set');
  return name;
};
