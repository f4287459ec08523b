import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { NotFound } from '#lib/errors';
import { INTERVAL_FIELDS, type IntervalRecord, type Intervals } from '#lib/intervals/types';
import { doc, tableName } from './client';
import { nextSequence, padId, type Item, deleteExisting, patchExisting, queryPartition } from './helpers';

// All interval settings live in one small partition, sorted by id: list = one Query.
const PARTITION = 'INTERVAL';
const keys = (id: number) => ({ PK: PARTITION, SK: `INTERVAL#${padId(id)}` });

const fromItem = (item: Item): IntervalRecord => {
  const record = { id: Number(item.id) } as IntervalRecord;
  for (const field of INTERVAL_FIELDS) record[field] = Number(item[field]);
  return record;
};

const notFound = (id: number) => new NotFound(`Interval ${id} not found`);

export const intervals = {
  async create(values: Intervals): Promise<IntervalRecord> {
    const id = await nextSequence('interval');
    const now = new Date().toISOString();
    const record: IntervalRecord = { id, ...values };
    await doc.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys(id), type: 'Interval', ...record, version: 1, createdAt: now, updatedAt: now },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return record;
  },

  async list(): Promise<IntervalRecord[]> {
    return (await queryPartition(PARTITION)).map(fromItem);
  },

  async get(id: number): Promise<IntervalRecord> {
    const { Item: item } = await doc.send(new GetCommand({ TableName: tableName(), Key: keys(id) }));
    if (!item) throw notFound(id);
    return fromItem(item);
  },

  async update(id: number, patch: Partial<Intervals>): Promise<IntervalRecord> {
    return fromItem(await patchExisting(keys(id), patch, () => notFound(id)));
  },

  async remove(id: number): Promise<void> {
    await deleteExisting(keys(id), () => notFound(id));
  },
};
