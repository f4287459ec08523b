import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { NotFound } from '#lib/errors';
import {
  assertDistinctListForm,
  assertListable,
  assertStorable,
  treeField,
  mergeListForm,
  type FiltersConfig,
  type FiltersConfigListForm,
  type StoredLocation,
} from '#lib/filterConfigs/types';
import { doc, tableName } from './client';
import { isConditionFailed, padId, queryAll, type Item } from './helpers';
import { caps } from '#lib/shared/caps';
import { mapConcurrent } from '#lib/shared/concurrency';
import * as capped from './caps';
import { mapListOrPage, queryListOrPage, type Page } from './pages';
import { numberedCollection } from './partition';

// All configurations live in one partition sorted by id; each item holds its whole
// region -> locations -> rooms tree, refused over DynamoDB's 400 KB counted in UTF-8 bytes (assertStorable):
// a list-form upsert keeps stored rooms, so the body limit alone does not bound it.
const PARTITION = 'FILTERCONFIG';
const sortKey = (id: number) => `FILTERCONFIG#${padId(id)}`;
const keys = (id: number) => ({ PK: PARTITION, SK: sortKey(id) });

const UPSERT_CONCURRENCY = 16;
// A list-form upsert reads, merges and writes back on a version condition. Every round of
// racing writers has one winner, so a few jittered retries settle any realistic contention.
const MERGE_ATTEMPTS = 10;
const jitter = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 5 * 2 ** attempt)));

const fromItem = (item: Item): FiltersConfig => ({
  id: Number(item.id),
  region: String(item.region),
  locations: ((item.locations ?? []) as StoredLocation[]).map(({ locationName, rooms }) => ({
    locationName,
    rooms: (rooms ?? []).map(({ roomName }) => ({ roomName })),
  })),
});

/** At most `FILTER_CONFIGS_MAX` configurations per stage (lib/db/caps.ts): an upsert of a new id past it is 409. */
const cap: capped.CapRules = {
  name: 'filterConfigs',
  get max() {
    return caps.filterConfigs();
  },
  full: (max) => `This stage holds ${max} filters configurations, its maximum (FILTER_CONFIGS_MAX); delete one first`,
  living: async () => {
    const items = await queryAll({ KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': PARTITION }, ProjectionExpression: 'id', ConsistentRead: true });
    return new Map(items.map((item) => [String(item.id), undefined]));
  },
};
const everyConfig = { KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': PARTITION } };
const collection = numberedCollection(PARTITION, sortKey, () => notFound());

export const FILTERS_CONFIG_NOT_FOUND = 'Filter configuration not found';
const notFound = () => new NotFound(FILTERS_CONFIG_NOT_FOUND, { body: FILTERS_CONFIG_NOT_FOUND });

const getItem = async (id: number): Promise<Item | undefined> =>
  (await doc.send(new GetCommand({ TableName: tableName(), Key: keys(id), ConsistentRead: true }))).Item;

/** Read, merge (rooms of remaining locations kept), write back if nobody wrote in between. */
const mergeOne = async (incoming: FiltersConfigListForm, index: number, now: string): Promise<void> => {
  for (let attempt = 1; ; attempt++) {
    const stored = await getItem(incoming.id);
    const version = Number(stored?.version ?? 0);
    const item = {
      ...keys(incoming.id),
      type: 'FiltersConfig',
      ...mergeListForm(incoming, stored && fromItem(stored)),
      version: version + 1,
      createdAt: stored?.createdAt ?? now,
      updatedAt: now,
    };
    assertStorable(item, treeField(index));
    assertListable(item, treeField(index));
    try {
      await doc.send(
        new PutCommand({
          TableName: tableName(),
          Item: item,
          ConditionExpression: stored ? '#version = :version' : 'attribute_not_exists(PK)',
          ...(stored && { ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':version': version } }),
        }),
      );
      return;
    } catch (error) {
      // after MERGE_ATTEMPTS lost races the failed condition surfaces as 409 "retry"
      if (!isConditionFailed(error) || attempt >= MERGE_ATTEMPTS) throw error;
      await jitter(attempt);
    }
  }
};

export const filterConfigs = {
  /** Every configuration, by id, rooms included (the list form leaves them out). */
  async list(): Promise<FiltersConfig[]> {
    return (await queryAll(everyConfig)).map(fromItem);
  },

  /** Every configuration, or one page with `limit` / `cursor` (sealed for this list). */
  async listOrPage(page: { limit?: number; cursor?: string }): Promise<FiltersConfig[] | Page<FiltersConfig>> {
    const paged = { keyAttributes: ['PK', 'SK'], partition: { PK: PARTITION }, query: 'filtersConfig' };
    return mapListOrPage(await queryListOrPage(everyConfig, paged, page), fromItem);
  },

  async get(id: number): Promise<FiltersConfig> {
    const item = await getItem(id);
    if (!item) throw notFound();
    return fromItem(item);
  },

  /** Creates or wholly replaces one configuration (per-id form): one atomic write. */
  async replace({ id, region, locations }: FiltersConfig): Promise<void> {
    const now = new Date().toISOString();
    // the item as it will be stored, its version counted at its widest
    assertStorable({ ...keys(id), type: 'FiltersConfig', id, region, locations, version: Number.MAX_SAFE_INTEGER, createdAt: now, updatedAt: now }, treeField());
    assertListable({ id, region, locations }, treeField());
    await capped.admit(cap, String(id));
    await doc.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys(id),
        UpdateExpression:
          'SET #type = :type, #id = :id, #region = :region, #locations = :locations, ' +
          '#version = if_not_exists(#version, :zero) + :one, #createdAt = if_not_exists(#createdAt, :now), #updatedAt = :now',
        ExpressionAttributeNames: {
          '#type': 'type', '#id': 'id', '#region': 'region', '#locations': 'locations',
          '#version': 'version', '#createdAt': 'createdAt', '#updatedAt': 'updatedAt',
        },
        ExpressionAttributeValues: {
          ':type': 'FiltersConfig', ':id': id, ':region': region, ':locations': locations,
          ':zero': 0, ':one': 1, ':now': now,
        },
      }),
    );
  },

  /** Upserts each list-form record, keeping stored rooms of the locations that remain. */
  async upsertMany(records: readonly FiltersConfigListForm[]): Promise<void> {
    assertDistinctListForm(records);
    const now = new Date().toISOString();
    // new ids take a place under the cap first (all or, with 409, the ones admitted before it was reached)
    for (const id of await capped.nonMembers(cap.name, records.map((r) => String(r.id)))) await capped.admit(cap, id);
    await mapConcurrent(records.map((record, index) => ({ record, index })), UPSERT_CONCURRENCY, ({ record, index }) => mergeOne(record, index, now));
  },

  ...collection,

  async remove(id: number): Promise<void> {
    await collection.remove(id);
    await capped.release(cap.name, [String(id)]).catch(() => undefined); // healed when the cap is reached
  },

  async keepOnly(ids: readonly number[]): Promise<number> {
    const deleted = await collection.keepOnly(ids);
    await capped.retainOnly(cap.name, new Set(ids.map(String))).catch(() => undefined);
    return deleted;
  },
};
