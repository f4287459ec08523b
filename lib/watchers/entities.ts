import { normalize, type WatcherInput, type WatcherRecord } from '#lib/watchers/types';
import { docRow, entity, texts } from '#lib/store/entity';
import { accessScopeField } from '#lib/access';
import type { AccessScopeEntry } from '#lib/shared/access';

export const WATCHERS = 'WATCHER';
export const WatcherEntity = /* @__PURE__ */ entity({
  type: 'Watcher',
  key: (id: string) => ({ PK: WATCHERS, SK: `WATCHER#${id}` }),
  fromItem: (item): WatcherRecord => ({
    id: String(item.id),
    ...accessScopeField(Array.isArray(item.scope) ? (item.scope as AccessScopeEntry[]) : undefined),
    ...normalize(item.watcher as WatcherInput),
    active: item.active === true,
    ...texts(item, 'createdAt', 'updatedAt'),
  }),
});
dataModel: docRow(WatcherEntity, { section: 'Watchers', PK: '`WATCHER`', SK: '`WATCHER#<uuid>`',
  notes: "`type=Watcher`, `id`, `scope?` (its scoped creator's regions and (region, location) pairs; absent: unscoped), `watcher` (map: the rule as sent, optional fields filled), `active`, `version`, `createdAt`, `updatedAt`" });

/** The rule is a map attribute `watcher`, which keeps its `type` apart from the item's entity `type`. */
export const watcherFields = (record: WatcherRecord, version: number) => {
  const { id, scope, active, createdAt, updatedAt, ...watcher } = record;
  return { id, ...accessScopeField(scope), watcher, active, version, createdAt, updatedAt };
};
