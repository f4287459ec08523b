import type { FilterRecord } from '#lib/config/filterRecords/types';
import type { FiltersConfig, StoredLocation } from '#lib/config/filterConfigs/types';
import { INTERVAL_FIELDS, type IntervalRecord } from '#lib/config/intervals/types';
import { docRow, entity, someTexts } from '#lib/store/entity';
import { padId } from '#lib/store/table';

/* The dashboard's settings and rules: intervals, watchers, filters, configurations, channels, caps, providers. */

export const SequenceEntity = /* @__PURE__ */ entity({
  type: 'Sequence',
  key: (name: string) => ({ PK: 'SEQUENCE', SK: name }),
  fromItem: (item) => Number(item.value),
});
dataModel: docRow(SequenceEntity, { section: 'Items', PK: '`SEQUENCE`', SK: '`<name>` (e.g. `interval`)', notes: 'atomic counter (`ADD value 1`) for integer ids' });

export const INTERVALS = 'INTERVAL';
export const IntervalEntity = /* @__PURE__ */ entity({
  type: 'Interval',
  key: (id: number) => ({ PK: INTERVALS, SK: `INTERVAL#${padId(id)}` }),
  fromItem: (item): IntervalRecord => {
    const record = { id: Number(item.id) } as IntervalRecord;
    for (const field of INTERVAL_FIELDS) record[field] = Number(item[field]);
    return record;
  },
});
dataModel: docRow(IntervalEntity, { section: 'Items', name: 'Interval settings', PK: '`INTERVAL`', SK: '`INTERVAL#<id, 15-digit zero-padded>`', notes: 'small collection: one partition, sorted by id' });

const filters = 'Filters and filters configuration';
export const FILTERS = 'FILTER';
export const filterSortKey = (id: number) => `FILTER#${padId(id)}`;
export const FilterEntity = /* @__PURE__ */ entity({
  type: 'Filter',
  key: (id: number) => ({ PK: FILTERS, SK: filterSortKey(id) }),
  fromItem: (item): FilterRecord => ({ id: Number(item.id), name: String(item.name), ...someTexts(item, 'description', 'deviceSN') }),
});
dataModel: docRow(FilterEntity, { section: filters, PK: '`FILTER`', SK: '`FILTER#<id, 15-digit padded>`', GSI1: '`FILTER_DEVICE#<deviceSN>` / `FILTER#<padded id>` (only when a deviceSN is set)',
  notes: '`id`, `name`, `description?`, `deviceSN?`, `version`' });
export const filterDeviceKeys = (deviceSN: string, id: number) => ({ GSI1PK: filterDevicePk(deviceSN), GSI1SK: filterSortKey(id) });
export const filterDevicePk = (deviceSN: string) => `FILTER_DEVICE#${deviceSN}`;

export const FILTER_CONFIGS = 'FILTERCONFIG';
export const filterConfigSortKey = (id: number) => `FILTERCONFIG#${padId(id)}`;
export const FilterConfigEntity = /* @__PURE__ */ entity({
  type: 'FiltersConfig',
  key: (id: number) => ({ PK: FILTER_CONFIGS, SK: filterConfigSortKey(id) }),
  fromItem: (item): FiltersConfig => ({
    id: Number(item.id),
    region: String(item.region),
    locations: ((item.locations ?? []) as StoredLocation[]).map(({ locationName, rooms }) => ({
      locationName,
      rooms: (rooms ?? []).map(({ roomName }) => ({ roomName })),
    })),
  }),
});
dataModel: docRow(FilterConfigEntity, { section: filters, name: 'Filters configuration', PK: '`FILTERCONFIG`', SK: '`FILTERCONFIG#<id, 15-digit padded>`', notes: '`id`, `region`, `locations: [{locationName, rooms: [{roomName}]}]`, `version`' });

/** Atomic sequence: each call returns the next integer for `name`, starting at 1. */
export const nextSequence = async (name: string): Promise<number> =>
  SequenceEntity.fromItem((await SequenceEntity.update(name, { expression: 'ADD #value :one SET #type = :type', values: { one: 1, type: 'Sequence' } }, undefined, 'UPDATED_NEW')) ?? {});
