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

/** Keys and indexes from table-definition.json, which serverless.yml reads too. */
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

/** Creates the table unless it exists, and waits until ACTIVE (docs/adr/0009); a concurrent create is success. */
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
