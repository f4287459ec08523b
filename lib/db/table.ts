import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
  waitUntilTableExists,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import definition from './table-definition.json';

/**
 * The table's keys and indexes come from table-definition.json, which serverless.yml reads for
 * the CloudFormation resource too, so the two can never drift apart.
 */
export const createTableInput = (tableName: string): CreateTableCommandInput => ({
  TableName: tableName,
  AttributeDefinitions: definition.AttributeDefinitions.map((a) => ({
    AttributeName: a.AttributeName,
    AttributeType: a.AttributeType as 'S',
  })),
  KeySchema: definition.KeySchema.map((k) => ({
    AttributeName: k.AttributeName,
    KeyType: k.KeyType as 'HASH' | 'RANGE',
  })),
  GlobalSecondaryIndexes: definition.GlobalSecondaryIndexes.map((index) => ({
    IndexName: index.IndexName,
    KeySchema: index.KeySchema.map((k) => ({
      AttributeName: k.AttributeName,
      KeyType: k.KeyType as 'HASH' | 'RANGE',
    })),
    Projection: { ProjectionType: 'ALL' },
  })),
  BillingMode: 'PAY_PER_REQUEST',
});

const describe = async (client: DynamoDBClient, tableName: string) => {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    return Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
};

/**
 * Idempotent "make sure the table exists and is ACTIVE" (DESIGN D8). Safe to call
 * from several processes at once: a concurrent create is treated as success.
 */
export const ensureTable = async (
  client: DynamoDBClient,
  tableName: string,
): Promise<{ created: boolean; status: string }> => {
  const existing = await describe(client, tableName);
  let created = false;
  if (!existing) {
    try {
      await client.send(new CreateTableCommand(createTableInput(tableName)));
      created = true;
    } catch (error) {
      if (!(error instanceof ResourceInUseException)) throw error;
    }
  }
  if (existing?.TableStatus !== 'ACTIVE') {
    await waitUntilTableExists({ client, maxWaitTime: 120, minDelay: 1 }, { TableName: tableName });
  }
  return { created, status: 'ACTIVE' };
};
