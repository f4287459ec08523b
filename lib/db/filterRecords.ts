import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Invalid, NotFound } from '#lib/errors';
import { duplicateIds, type FilterFields, type FilterRecord, type FilterUpsert } from '#lib/filterRecords/types';
import { doc, tableName } from './client';
import { padId, queryAll, type Item } from './helpers';
import { mapConcurrent } from '#lib/shared/concurrency';
import { numberedCollection } from './partition';

// All filters live in one partition sorted by id (list, count, keep-list = one Query each);
// a filter with a device serial number is also in GSI1 under that number, lowest id first.
const PARTITION = 'FILTER';
const sortKey = (id: number) => `FILTER#${padId(id)}`;
const keys = (id: number) => ({ PK: PARTITION, SK: sortKey(id) });
const deviceKey = (deviceSN: string) => `FILTER_DEVICE#${deviceSN}`;

const UPSERT_CONCURRENCY = 16;

const fromItem = (item: Item): FilterRecord => {
  const record: FilterRecord = { id: Number(item.id), name: String(item.name) };
  if (typeof item.description === 'string') record.description = item.description;
  if (typeof item.deviceSN === 'string') record.deviceSN = item.deviceSN;
  return record;
};

export const FILTER_NOT_FOUND = 'Filter not found';
const notFound = () => new NotFound(FILTER_NOT_FOUND, { body: FILTER_NOT_FOUND });

/**
 * One UpdateItem that creates or updates: fields sent replace the stored ones, fields not
 * sent are kept, `deviceSN: null` removes the device association (and the index entry).
 * Atomic per record, so concurrent upserts end in the state of applying them in some order.
 */
const upsertInput = (id: number, fields: FilterFields, now: string) => {
  const names: Record<string, string> = { '#type': 'type', '#id': 'id', '#version': 'version', '#createdAt': 'createdAt', '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':type': 'Filter', ':id': id, ':zero': 0, ':one': 1, ':now': now };
  const sets = ['#type = :type', '#id = :id', '#version = if_not_exists(#version, :zero) + :one', '#createdAt = if_not_exists(#createdAt, :now)', '#updatedAt = :now'];
  const removes: string[] = [];
  const set = (field: string, value: unknown) => {
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    sets.push(`#${field} = :${field}`);
  };
  if (fields.name !== undefined) set('name', fields.name);
  if (fields.description !== undefined) set('description', fields.description);
  if (typeof fields.deviceSN === 'string') {
    set('deviceSN', fields.deviceSN);
    set('GSI1PK', deviceKey(fields.deviceSN));
    set('GSI1SK', sortKey(id));
  } else if (fields.deviceSN === null) {
    Object.assign(names, { '#deviceSN': 'deviceSN', '#GSI1PK': 'GSI1PK', '#GSI1SK': 'GSI1SK' });
    removes.push('#deviceSN', '#GSI1PK', '#GSI1SK');
  }
  return {
    TableName: tableName(),
    Key: keys(id),
    UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
};

export const filterRecords = {
  /** Every filter, by id, as `{id, name}`. */
  async list(): Promise<Pick<FilterRecord, 'id' | 'name'>[]> {
    const items = await queryAll({
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': PARTITION },
      ProjectionExpression: '#id, #name',
      ExpressionAttributeNames: { '#id': 'id', '#name': 'name' },
    });
    return items.map((item) => ({ id: Number(item.id), name: String(item.name) }));
  },

  async get(id: number): Promise<FilterRecord> {
    const { Item: item } = await doc.send(new GetCommand({ TableName: tableName(), Key: keys(id) }));
    if (!item) throw notFound();
    return fromItem(item);
  },

  /** The filter associated with a device serial number; the lowest id when several claim it. */
  async byDevice(deviceSN: string): Promise<FilterRecord> {
    const { Items: items } = await doc.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': deviceKey(deviceSN) },
        Limit: 1,
      }),
    );
    const item = items?.[0];
    if (!item) throw notFound();
    return fromItem(item);
  },

  async upsert(id: number, fields: FilterFields): Promise<void> {
    await doc.send(new UpdateCommand(upsertInput(id, fields, new Date().toISOString())));
  },

  /** Upserts each record (same rules as `upsert`); refuses a list naming one id twice. */
  async upsertMany(records: readonly FilterUpsert[]): Promise<void> {
    const duplicates = duplicateIds(records);
    if (duplicates.length) throw new Invalid('Each filter id may appear once', duplicates);
    const now = new Date().toISOString();
    await mapConcurrent(records, UPSERT_CONCURRENCY, async ({ id, ...fields }) => {
      await doc.send(new UpdateCommand(upsertInput(id, fields, now)));
    });
  },

  ...numberedCollection(PARTITION, sortKey, notFound),
};
