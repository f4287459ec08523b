import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

// Built once per container. The SDK reads AWS_ENDPOINT_URL_DYNAMODB itself, so the
// same code talks to AWS, DynamoDB Local or the embedded dynalite without a branch here.
export const dynamo = new DynamoDBClient({});

export const doc = DynamoDBDocumentClient.from(dynamo, {
  marshallOptions: { removeUndefinedValues: true },
});

export const tableName = (): string => {
  const name = process.env.TABLE_NAME;
  if (!name) throw new Error('TABLE_NAME is not set');
  return name;
};
