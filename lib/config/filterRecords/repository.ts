import { Invalid, NotFound } from '#lib/shared/errors';
import { duplicateIds, type FilterFields, type FilterRecord, type FilterUpsert } from '#lib/config/filterRecords/types';
import { mapConcurrent } from '#lib/shared/concurrency';
import { FilterEntity, filterDeviceKeys, filterDevicePk, FILTERS, filterSortKey } from '#lib/config/entities';
import { collection } from '#lib/store/entity';
import { queryFirst } from '#lib/store/query';
import { must } from '#lib/store/table';
import { numberedCollection } from '#lib/store/partition';

// All filters live in one partition sorted by id (list, count, keep-list = one Query each);
// a filter with a device serial number is also in GSI1 under that number, lowest id first.
const UPSERT_CONCURRENCY = 16;

const FILTER_NOT_FOUND = 'Filter not found';
const notFound = () => new NotFound(FILTER_NOT_FOUND, { body: FILTER_NOT_FOUND });

/** One UpdateItem creating or updating: sent fields replace, others kept, `deviceSN: null` removes it (docs/guide/rules/config.md "Filter records: fields, merging upserts, one serial number in several filters"). */
const upsertOne = async (id: number, fields: FilterFields, now: string): Promise<void> => {
  const sent = { name: fields.name, description: fields.description };
  const device = typeof fields.deviceSN === 'string' ? { deviceSN: fields.deviceSN, ...filterDeviceKeys(fields.deviceSN, id) } : {};
  await FilterEntity.update(id, {
    set: { type: 'Filter', id, updatedAt: now, ...Object.fromEntries(Object.entries(sent).filter(([, value]) => value !== undefined)), ...device },
    count: { version: 1 },
    init: { createdAt: now },
    remove: fields.deviceSN === null ? ['deviceSN', 'GSI1PK', 'GSI1SK'] : [],
  });
};

export const filterRecords = {
  /** Every filter, by id, as `{id, name}`. */
  async list(): Promise<Pick<FilterRecord, 'id' | 'name'>[]> {
    return (await collection(FILTERS).all({ project: ['id', 'name'] })).map((item) => ({ id: Number(item.id), name: String(item.name) }));
  },

  async get(id: number): Promise<FilterRecord> {
    return must(FilterEntity.find(id), notFound);
  },

  /** The filter associated with a device serial number; the lowest id when several claim it. */
  async byDevice(deviceSN: string): Promise<FilterRecord> {
    return FilterEntity.fromItem(await must(queryFirst({ index: 'GSI1', pk: filterDevicePk(deviceSN) }), notFound));
  },

  async upsert(id: number, fields: FilterFields): Promise<void> {
    await upsertOne(id, fields, new Date().toISOString());
  },

  /** Upserts each record (same rules as `upsert`); refuses a list naming one id twice. */
  async upsertMany(records: readonly FilterUpsert[]): Promise<void> {
    const duplicates = duplicateIds(records);
    if (duplicates.length) throw new Invalid('Each filter id may appear once', duplicates);
    const now = new Date().toISOString();
    await mapConcurrent(records, UPSERT_CONCURRENCY, ({ id, ...fields }) => upsertOne(id, fields, now));
  },

  ...numberedCollection(FILTERS, filterSortKey, notFound),
};
