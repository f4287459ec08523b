import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound } from '#lib/errors';
import { assertListable, normalize, type ConfigurationField, type Watcher, type WatcherInput, type WatcherRecord } from '#lib/watchers/types';
import { normalizeScope, type ScopeEntry } from '#lib/shared/access';
import { caps } from '#lib/shared/caps';
import * as capped from './caps';
import { doc, tableName } from './client';
import { mapListOrPage, mapPage, queryKeptPage, queryListOrPage, type Page } from './pages';
import { conditionHeld, isConditionFailed, queryAll, type Item, deleteExisting, patchExisting, whenExists } from './helpers';

// Watchers are few: they all live in one partition, so listing them is one Query.
// The rule itself is a map attribute `watcher`, which keeps its `type` apart from the
// item's entity `type`.
const PARTITION = 'WATCHER';
const keys = (id: string) => ({ PK: PARTITION, SK: `WATCHER#${id}` });

/** A scope is stored and answered only when it narrows: an unscoped watcher has no `scope` (as before scopes). */
const scopeField = (scope: readonly ScopeEntry[] | undefined): { scope?: ScopeEntry[] } => {
  const normal = normalizeScope(scope);
  return normal.length > 0 ? { scope: normal } : {};
};

const fromItem = (item: Item): WatcherRecord => ({
  id: String(item.id),
  ...scopeField(Array.isArray(item.scope) ? (item.scope as ScopeEntry[]) : undefined),
  ...normalize(item.watcher as WatcherInput),
  active: item.active === true,
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
});

/** A stored watcher and the version it was read at. */
export interface VersionedWatcher {
  record: WatcherRecord;
  version: number;
}

const notFound = (id: string) => new NotFound(`Watcher ${id} not found`);
const changed = (id: string) => new Conflict(`Watcher ${id} was changed by another request; read it again and retry`);

const toItem = (record: WatcherRecord, version: number): Item => {
  const { id, scope, active, createdAt, updatedAt, ...watcher } = record;
  return { ...keys(id), type: 'Watcher', id, ...scopeField(scope), watcher, active, version, createdAt, updatedAt };
};

/** At most `WATCHERS_MAX` watchers per stage (lib/db/caps.ts): a create past it is 409. */
const cap: capped.CapRules = {
  name: 'watchers',
  get max() {
    return caps.watchers();
  },
  full: (max) => `This stage holds ${max} watchers, its maximum (WATCHERS_MAX); delete one first`,
  living: async () => {
    const items = await queryAll({ KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': PARTITION }, ProjectionExpression: 'id', ConsistentRead: true });
    return new Map(items.map((item) => [String(item.id), undefined]));
  },
};

/** A new watcher's id (a caller that queues the watcher before storing it needs it first). */
export const newId = (): string => randomUUID();

/**
 * Stores a new, active watcher and answers its id; 409 when the stage holds its maximum. A
 * `scope` (its creator's) keeps its alarms to the devices inside.
 */
export const create = async (input: WatcherInput, id = newId(), scope: readonly ScopeEntry[] = []): Promise<string> => {
  const now = new Date().toISOString();
  const record: WatcherRecord = { id, ...scopeField(scope), ...normalize(input), active: true, createdAt: now, updatedAt: now };
  assertListable(record);
  await capped.admit(cap, id);
  try {
    await doc.send(
      new PutCommand({ TableName: tableName(), Item: toItem(record, 1), ConditionExpression: 'attribute_not_exists(PK)' }),
    );
  } catch (error) {
    await capped.release(cap.name, [id]).catch(() => undefined); // else healed when the cap is reached
    throw error;
  }
  return id;
};

const everyWatcher = { KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': PARTITION }, ConsistentRead: true };

/** Strongly consistent: a channel delete must see every watcher written before it (lib/notify/channels.ts). */
export const list = async (): Promise<WatcherRecord[]> => (await queryAll(everyWatcher)).map(fromItem);

const paged = { keyAttributes: ['PK', 'SK'], partition: { PK: PARTITION }, query: 'watcher/all' };

/** GET /watcher/all: every watcher, or one page with `limit` / `cursor` (sealed for this list). */
export const listOrPage = async (page: { limit?: number; cursor?: string }): Promise<WatcherRecord[] | Page<WatcherRecord>> => {
  return mapListOrPage(await queryListOrPage(everyWatcher, paged, page), fromItem);
};

/** One page of the watchers `keep` accepts (a scoped caller's), with the cursors of `listOrPage`. */
export const keptPage = async (keep: (watcher: WatcherRecord) => boolean, limit: number, cursor: string | undefined): Promise<Page<WatcherRecord>> =>
  mapPage(await queryKeptPage(everyWatcher, paged, (item) => keep(fromItem(item)), limit, cursor), fromItem);

export const read = async (id: string): Promise<VersionedWatcher> => {
  const { Item: item } = await doc.send(new GetCommand({ TableName: tableName(), Key: keys(id), ConsistentRead: true }));
  if (!item) throw notFound(id);
  return { record: fromItem(item), version: Number(item.version) };
};

export const get = async (id: string): Promise<WatcherRecord> => {
  return (await read(id)).record;
};

/**
 * Replaces the rule of a watcher read at `version`, keeping its id, `active` and
 * `createdAt`. Anyone else's write since that read makes this a 409, never an overwrite.
 */
export const replace = async (current: VersionedWatcher, input: WatcherInput): Promise<WatcherRecord> => {
  const { id } = current.record;
  const record: WatcherRecord = { ...current.record, ...normalize(input), updatedAt: new Date().toISOString() };
  assertListable(record);
  try {
    await doc.send(
      new PutCommand({
        TableName: tableName(),
        Item: toItem(record, current.version + 1),
        ConditionExpression: '#version = :read',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':read': current.version },
      }),
    );
  } catch (error) {
    if (isConditionFailed(error)) throw changed(id);
    throw error;
  }
  return record;
};

/**
 * Puts back the watcher as it was read, undoing the replace written on top of it, unless
 * someone wrote after that replace (their write stands). Answers whether it was put back.
 */
export const restore = async (previous: VersionedWatcher): Promise<boolean> => {
  return conditionHeld(
    doc.send(
      new PutCommand({
        TableName: tableName(),
        Item: toItem(previous.record, previous.version + 2),
        ConditionExpression: '#version = :replaced',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':replaced': previous.version + 1 },
      }),
    ),
  );
};

/** PUT semantics: the whole rule is replaced; 404 for an unknown id, 409 on a lost race. */
export const update = async (id: string, input: WatcherInput): Promise<WatcherRecord> => {
  return replace(await read(id), input);
};

/** Switches a watcher on or off; one atomic write that also bumps the version. */
export const setActive = async (id: string, active: boolean): Promise<WatcherRecord> => fromItem(await patchExisting(keys(id), { active }, () => notFound(id)));

export const remove = async (id: string): Promise<void> => {
  await deleteExisting(keys(id), () => notFound(id));
  await capped.release(cap.name, [id]).catch(() => undefined); // best effort after the delete: healed when the cap is reached
};

/** One alarm-configuration field of every watcher (one Query, only that attribute read). */
export const fieldValues = async (field: ConfigurationField): Promise<unknown[]> => {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk',
    ProjectionExpression: '#watcher.#field',
    ExpressionAttributeNames: { '#watcher': 'watcher', '#field': field },
    ExpressionAttributeValues: { ':pk': PARTITION },
  });
  return items.map((item) => (item.watcher as Partial<Watcher> | undefined)?.[field]);
};
