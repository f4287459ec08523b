import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ProviderStatus } from '#lib/inventory/pure/providerStatus';
import { doc, tableName } from './client';
import { queryAll, type Item } from './helpers';

/*
 * One item per device provider in one small partition (a handful of providers): written whole by
 * the sync after each run (the sync's lease keeps runs apart), read whole by `GET /providers`.
 */
const PARTITION = 'PROVIDER';
const keys = (name: string) => ({ PK: PARTITION, SK: `PROVIDER#${name}` });

const fromItem = (item: Item): ProviderStatus => {
  const { PK: _pk, SK: _sk, type: _type, ...status } = item;
  return status as unknown as ProviderStatus;
};

/** Every provider's status, read consistently (the sync that follows decides on it). */
export const all = async (): Promise<Map<string, ProviderStatus>> => {
  const items = await queryAll({ KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': PARTITION }, ConsistentRead: true });
  return new Map(items.map(fromItem).map((status) => [status.name, status]));
};

export const put = async (status: ProviderStatus): Promise<void> => {
  await doc.send(new PutCommand({ TableName: tableName(), Item: { ...keys(status.name), type: 'ProviderStatus', ...status } }));
};
