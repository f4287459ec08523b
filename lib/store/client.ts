import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { traced } from '#lib/observability/tracing';
import { deadlineBound } from './deadlineHandler';
import { storeRetryStrategy } from './retry';

// Built once per container. The SDK reads AWS_ENDPOINT_URL_DYNAMODB itself, so the
// same code talks to AWS, DynamoDB Local or the embedded dynalite without a branch here.
// Bounded waits: a stuck connection becomes a retried TimeoutError (503 to the client)
// instead of a Lambda that hangs until API Gateway gives up.
// Its calls are X-Ray subsegments where tracing is on (lib/observability/tracing.ts).
// Sockets: the SDK's default agent keeps 50, and a request waiting for a free one is already
// under `connectionTimeout`, so a pass with 64 writes in flight (WRITES_IN_FLIGHT) beside its
// reads had requests fail as timeouts while merely queued behind a slow store. 256 sockets
// cover every concurrency limit in lib/, so the timeout measures the connection again.
// Retries: throttled calls more often than other failures (lib/store/retry.ts).
export const clientOptions = {
  retryStrategy: storeRetryStrategy,
  requestHandler: { connectionTimeout: 1_000, requestTimeout: 3_000, httpAgent: { maxSockets: 256 }, httpsAgent: { maxSockets: 256 } },
};

// Within a run of the alarm engine no request starts after the run's deadline, and one in flight
// is aborted when it passes (lib/store/deadlineHandler.ts): a slow store no longer stretches a run
// by up to requestTimeout x maxAttempts a call (issue 24 item 9). Elsewhere it changes nothing.
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
