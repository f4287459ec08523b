/**
 * The watchers a principal reaches (DESIGN §5): the unscoped reach every watcher, exactly as
 * before scopes; a scoped principal only those whose stored scope lies within its own, any other
 * answered 404 as if unknown. Conditions naming a region or location outside the caller's scope
 * are 404 as well, naming the condition, never the place.
 */
import type { Page } from '#lib/store/paging';
import * as watchers from '#lib/watchers/repository';
import { NotFound } from '#lib/shared/errors';
import { isUnscoped, type AccessScope } from '#lib/shared/access';
import { conditionsOutside, watcherWithinAccessScope } from './scope';
import type { ConfigurationField, WatcherInput, WatcherRecord } from './types';

const notFound = (id: string) => new NotFound(`Watcher ${id} not found`);

/** 404 unless every condition names only places within the scope. */
export const requireConditionsWithin = (scope: AccessScope, input: Pick<WatcherInput, 'operations'>): void => {
  const outside = conditionsOutside(scope, input.operations);
  if (outside.length === 0) return;
  throw new NotFound(`No place within your scope is named by ${outside.join(', ')}`, {
    details: outside.map((field) => ({ field, message: `${field} names a region or location outside your scope` })),
  });
};

/** The watcher and its version; 404 unknown or outside the scope. */
export const readWithin = async (id: string, scope: AccessScope): Promise<watchers.VersionedWatcher> => {
  const current = await watchers.read(id);
  if (!watcherWithinAccessScope(current.record, scope)) throw notFound(id);
  return current;
};

/** GET /watcher/{id}: 404 unknown or outside the scope. */
export const getWithin = async (id: string, scope: AccessScope): Promise<WatcherRecord> => (await readWithin(id, scope)).record;

/** 404 when a scoped caller does not reach the watcher; nothing read for the unscoped (the write itself says 404). */
export const requireReach = async (id: string, scope: AccessScope): Promise<void> => {
  if (!isUnscoped(scope)) await readWithin(id, scope);
};

/** GET /watcher/all: the watchers the scope reaches, all of them or one page (a scoped page may be short). */
export const listWithin = async (scope: AccessScope, page: { limit?: number; cursor?: string }): Promise<WatcherRecord[] | Page<WatcherRecord>> => {
  if (isUnscoped(scope)) return watchers.listOrPage(page);
  const within = (watcher: WatcherRecord) => watcherWithinAccessScope(watcher, scope);
  if (page.limit === undefined && page.cursor === undefined) return (await watchers.list()).filter(within);
  return watchers.page(page.limit ?? 100, page.cursor, within);
};

/**
 * The values of an alarm-configuration field (`/filter/dashboards|alarmservices|alarmtypes`)
 * over the watchers the scope reaches, as GET /watcher/all answers them: the names another
 * region's watchers use stay unknown to a scoped caller. The unscoped read every watcher's, as before.
 */
export const fieldValuesWithin = async (field: ConfigurationField, scope: AccessScope): Promise<unknown[]> =>
  isUnscoped(scope) ? watchers.fieldValues(field) : (await watchers.list()).filter((watcher) => watcherWithinAccessScope(watcher, scope)).map((watcher) => watcher[field]);
