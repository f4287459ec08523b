import { Conflict, NotFound } from '#lib/errors';
import { INTERVAL_FIELDS, type IntervalRecord, type Intervals } from '#lib/intervals/types';
import { nextSequence, padId, partitionRecords, putNew, type Item } from './helpers';

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
  ...partitionRecords<number, IntervalRecord, Partial<Intervals>>(PARTITION, keys, fromItem, notFound),

  async create(values: Intervals): Promise<IntervalRecord> {
    const id = await nextSequence('interval');
    const now = new Date().toISOString();
    const record: IntervalRecord = { id, ...values };
    // a fresh sequence number: the condition only guards against a reset sequence
    await putNew({ ...keys(id), type: 'Interval', ...record, version: 1, createdAt: now, updatedAt: now }, () => new Conflict(`Interval ${id} exists`));
    return record;
  },
};
