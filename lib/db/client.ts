import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { traced } from '#lib/observability/tracing';

// Built once per container. The SDK reads AWS_ENDPOINT_URL_DYNAMODB itself, so the
// same code talks to AWS, DynamoDB Local or the embedded dynalite without a branch here.
// Bounded waits: a stuck connection becomes a retried TimeoutError (503 to the client)
// instead of a Lambda that hangs until API Gateway gives up.
// Its calls are X-Ray subsegments where tracing is on (lib/observability/tracing.ts).
export const dynamo = traced(
  new DynamoDBClient({
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 1_000, requestTimeout: 3_000 },
  }),
);

export const doc = DynamoDBDocumentClient.from(dynamo, {
  marshallOptions: { removeUndefinedValues: true },
});

export const tableName = (): string => {
  const name = process.env.TABLE_NAME;
  if (!name) throw new Error('TABLE_NAME is not set');
  return name;
};
