// The public module of lib/config: what other domains, functions, contracts and bindings use of it.
// Anything outside lib/config/ imports it from here ('#lib/config'), never a file inside (tests/unit/layers.test.ts).
export { filterConfigs } from './filterConfigs/repository';
export { configCountWithin, configOf, configsWithin } from './filterConfigs/scope';
export { MAX_LOCATIONS, MAX_ROOMS, fromNestedForm, toListForm } from './filterConfigs/types';
export { filterRecords } from './filterRecords/repository';
export { filterOf, filterOfDevice } from './filterRecords/scope';
export { MAX_FILTER_ID, MAX_KEEP_IDS, MAX_UPSERT_ITEMS } from './filterRecords/types';
export { intervals } from './intervals/repository';
export { INTERVAL_FIELDS, MAX_INTERVAL_SECONDS, MIN_INTERVAL_SECONDS } from './intervals/types';
export type { IntervalField, IntervalRecord } from './intervals/types';
