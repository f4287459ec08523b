import { filterConfigs } from '#lib/config/filterConfigs/repository';
import { NotFound } from '#lib/shared/errors';
import { isUnscoped, type AccessScope } from '#lib/shared/access';
import type { Page } from '#lib/store/paging';
import type { FiltersConfig } from './types';

/*
 * A filter configuration names a region and its locations: places of the fleet, so a scoped
 * caller reads only those within its scope (docs/guide/rules/access.md "Filter configurations and a device's filter are narrowed to the scope"), as it reads devices.
 */

/** The configuration as `scope` sees it: only its locations within the scope; undefined when its region is not, or none of its locations is. */
export const configWithin = (config: FiltersConfig, scope: AccessScope): FiltersConfig | undefined => {
  if (isUnscoped(scope)) return config;
  const entries = scope.filter((entry) => entry.region === config.region);
  if (entries.length === 0) return undefined;
  if (entries.some((entry) => entry.location === undefined)) return config;
  const locations = config.locations.filter((location) => entries.some((entry) => entry.location === location.locationName));
  return locations.length > 0 ? { ...config, locations } : undefined;
};

/** GET /filtersConfig/{id}: 404 as for an unknown id when it lies outside the scope. */
export const configOf = async (id: number, scope: AccessScope): Promise<FiltersConfig> => {
  const seen = configWithin(await filterConfigs.get(id), scope);
  if (!seen) throw new NotFound('Filter configuration not found', { body: 'Filter configuration not found' });
  return seen;
};

/** GET /filtersConfig: every configuration, or one page, within the scope (a scoped page may be short). */
export const configsWithin = async (asked: { limit?: number; cursor?: string }, scope: AccessScope): Promise<FiltersConfig[] | Page<FiltersConfig>> => {
  if (isUnscoped(scope)) return filterConfigs.listOrPage(asked);
  const seen = (config: FiltersConfig) => configWithin(config, scope);
  if (asked.limit === undefined && asked.cursor === undefined) return (await filterConfigs.list()).flatMap((config) => seen(config) ?? []);
  const page = await filterConfigs.page(asked.limit ?? 100, asked.cursor, (config) => seen(config) !== undefined);
  return { items: page.items.flatMap((config) => seen(config) ?? []), nextCursor: page.nextCursor };
};

/** GET /filtersConfig/count: how many configurations the caller may list (a scoped caller's within its scope). */
export const configCountWithin = async (scope: AccessScope): Promise<number> => {
  if (isUnscoped(scope)) return filterConfigs.count();
  return (await filterConfigs.list()).filter((config) => configWithin(config, scope) !== undefined).length;
};
