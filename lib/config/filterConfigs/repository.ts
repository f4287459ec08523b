import { NotFound } from '#lib/shared/errors';
import {
  assertDistinctListForm,
  assertListable,
  assertStorable,
  treeField,
  mergeListForm,
  type FiltersConfig,
  type FiltersConfigListForm,
} from '#lib/config/filterConfigs/types';
import { caps } from '#lib/shared/caps';
import { mapConcurrent } from '#lib/shared/concurrency';
import { FILTER_CONFIGS, FilterConfigEntity, filterConfigSortKey } from '#lib/config/entities';
import { atVersion } from '#lib/store/expression';
import { listed } from '#lib/store/paging';
import { must, NEW, changedMeanwhile } from '#lib/store/table';
import { capped, members } from '#lib/store/caps';
import { numberedCollection } from '#lib/store/partition';
import { sleep } from '#lib/shared/timer';

// One partition sorted by id; each item holds its whole tree, refused over 400 KB (assertStorable, docs/guide/rules/config.md "Filters configuration: one item per tree, replacing and merging upserts").
const UPSERT_CONCURRENCY = 16;
// A list-form upsert reads, merges and writes back on a version condition. Every round of
// racing writers has one winner, so a few jittered retries settle any realistic contention.
const MERGE_ATTEMPTS = 10;
const jitter = (attempt: number) => sleep(Math.random() * Math.min(200, 5 * 2 ** attempt));

/** At most `FILTER_CONFIGS_MAX` configurations per stage (lib/store/caps.ts): an upsert of a new id past it is 409. */
const cap = capped('filterConfigs', () => caps.filterConfigs(), (max) => `This stage holds ${max} filters configurations, its maximum (FILTER_CONFIGS_MAX); delete one first`, members(FILTER_CONFIGS));
const numbered = numberedCollection(FILTER_CONFIGS, filterConfigSortKey, () => notFound());
const every = listed(() => ({ pk: FILTER_CONFIGS }), 'filtersConfig', FilterConfigEntity.fromItem);

const FILTERS_CONFIG_NOT_FOUND = 'Filter configuration not found';
const notFound = () => new NotFound(FILTERS_CONFIG_NOT_FOUND, { body: FILTERS_CONFIG_NOT_FOUND });

/** Read, merge (rooms of remaining locations kept), write back if nobody wrote in between. */
const mergeOne = async (incoming: FiltersConfigListForm, index: number, now: string): Promise<void> => {
  for (let attempt = 1; ; attempt++) {
    const stored = await FilterConfigEntity.read(incoming.id, { consistent: true });
    const version = Number(stored?.version ?? 0);
    const fields = { ...mergeListForm(incoming, stored && FilterConfigEntity.fromItem(stored)), version: version + 1, createdAt: stored?.createdAt ?? now, updatedAt: now };
    const item = { ...FilterConfigEntity.key(incoming.id), type: FilterConfigEntity.type, ...fields };
    assertStorable(item, treeField(index));
    assertListable(item, treeField(index));
    if (await FilterConfigEntity.put(incoming.id, fields, stored ? atVersion(version) : NEW)) return;
    // after MERGE_ATTEMPTS lost races the failed condition surfaces as 409 "retry"
    if (attempt >= MERGE_ATTEMPTS) throw changedMeanwhile();
    await jitter(attempt);
  }
};

export const filterConfigs = {
  /** Every configuration, by id, rooms included (the list form leaves them out). */
  list: every.all,

  /** Every configuration, or one page with `limit` / `cursor` (sealed for this list). */
  listOrPage: every.listOrPage,

  /** One page of the configurations `keep` accepts (a scoped caller's), with the cursors of `listOrPage`. */
  page: every.page,

  async get(id: number): Promise<FiltersConfig> {
    return FilterConfigEntity.fromItem(await must(FilterConfigEntity.read(id, { consistent: true }), notFound));
  },

  /** Creates or wholly replaces one configuration (per-id form): one atomic write. */
  async replace({ id, region, locations }: FiltersConfig): Promise<void> {
    const now = new Date().toISOString();
    // the item as it will be stored, its version counted at its widest
    assertStorable(FilterConfigEntity.item(id, { id, region, locations, version: Number.MAX_SAFE_INTEGER, createdAt: now, updatedAt: now }), treeField());
    assertListable({ id, region, locations }, treeField());
    await cap.admit(String(id));
    await FilterConfigEntity.update(id, { set: { type: 'FiltersConfig', id, region, locations, updatedAt: now }, count: { version: 1 }, init: { createdAt: now } });
  },

  /** Upserts each list-form record, keeping stored rooms of the locations that remain. */
  async upsertMany(records: readonly FiltersConfigListForm[]): Promise<void> {
    assertDistinctListForm(records);
    const now = new Date().toISOString();
    // new ids take a place under the cap first (all or, with 409, the ones admitted before it was reached)
    for (const id of await cap.nonMembers(records.map((r) => String(r.id)))) await cap.admit(id);
    await mapConcurrent(records.map((record, index) => ({ record, index })), UPSERT_CONCURRENCY, ({ record, index }) => mergeOne(record, index, now));
  },

  ...numbered,

  async remove(id: number): Promise<void> {
    await numbered.remove(id);
    await cap.forget(String(id));
  },

  async keepOnly(ids: readonly number[]): Promise<number> {
    const deleted = await numbered.keepOnly(ids);
    await cap.retainOnly(new Set(ids.map(String))).catch(() => undefined);
    return deleted;
  },
};
