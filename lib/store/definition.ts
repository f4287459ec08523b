import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import definition from './table-definition.json';

/** Keys and indexes from table-definition.json, which serverless.yml reads too (TTL is set apart from the create). */
const { TimeToLiveAttribute: ttlAttribute, ...table } = definition;

const describe = async (client: DynamoDBClient, tableName: string) => {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
};

/**
 * TTL on `expiresAt`, as serverless.yml has it in AWS: the store then deletes expired items on
 * its own schedule (within days, not at once), so readers still treat them as absent.
 */
const ensureTimeToLive = async (client: DynamoDBClient, tableName: string): Promise<void> => {
  const { TimeToLiveDescription } = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
  const status = TimeToLiveDescription?.TimeToLiveStatus;
  if (status === 'ENABLED' || status === 'ENABLING') return;
  await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: ttlAttribute, Enabled: true } }));
};

/** Creates the table unless it exists, and waits until ACTIVE (docs/guide/rules/store.md "`createTable` endpoints ensure the one table"), TTL enabled; a concurrent create is success. */
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
  await ensureTimeToLive(client, tableName);
  return { created, status: 'ACTIVE' };
};
