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

/** Keys and indexes from table-definition.json, which serverless.yml reads too (TTL is set apart from the create). */
const { TimeToLiveAttribute: _ttl, ...table } = definition;

const describe = async (client: DynamoDBClient, tableName: string) => {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
};

/** Creates the table unless it exists, and waits until ACTIVE (docs/adr/0009); a concurrent create is success. */
export const ensureTable = async (client: DynamoDBClient, tableName: string): Promise<{ created: boolean; status: string }> => {
  const existing = await describe(client, tableName);
  let created = false;
  if (!existing) {
    try {
      await client.send(new CreateTableCommand({ TableName: tableName, ...(table as Omit<CreateTableCommandInput, 'TableName'>) }));
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
