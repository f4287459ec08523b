import type { HeldRemovals, ProviderStatus } from '#lib/inventory/pure/providerStatus';
import type { FilterRecord } from '#lib/filterRecords/types';
import type { FiltersConfig, StoredLocation } from '#lib/filterConfigs/types';
import { INTERVAL_FIELDS, type IntervalRecord } from '#lib/intervals/types';
import type { Channel } from '#lib/notify/types';
import { normalize, type WatcherInput, type WatcherRecord } from '#lib/watchers/types';
import { docRow, entity, someTexts, textList, texts } from '../entity';
import { padId } from '../table';
import { scopeField } from './account';
import type { ScopeEntry } from '#lib/shared/access';

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

export const WATCHERS = 'WATCHER';
export const WatcherEntity = /* @__PURE__ */ entity({
  type: 'Watcher',
  key: (id: string) => ({ PK: WATCHERS, SK: `WATCHER#${id}` }),
  fromItem: (item): WatcherRecord => ({
    id: String(item.id),
    ...scopeField(Array.isArray(item.scope) ? (item.scope as ScopeEntry[]) : undefined),
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
  return { id, ...scopeField(scope), watcher, active, version, createdAt, updatedAt };
};

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

export const CHANNELS = 'CHANNEL';
export const ChannelEntity = /* @__PURE__ */ entity({
  type: 'Channel',
  key: (id: string) => ({ PK: CHANNELS, SK: `CHANNEL#${id}` }),
  /** Never reads the signing secret: only `secretOf` does. */
  fromItem: (item): Channel => {
    const common = texts(item, 'id', 'name', 'createdAt', 'updatedAt');
    return item.channelType === 'webhook'
      ? { ...common, type: 'webhook', url: String(item.url), format: item.format === 'slack' || item.format === 'teams' ? item.format : 'json' }
      : { ...common, type: 'email', emails: textList(item.emails) };
  },
});
dataModel: docRow(ChannelEntity, { section: 'Notifications', name: 'Channel', PK: '`CHANNEL`', SK: '`CHANNEL#<uuid>`',
  notes: '`id, name, channelType` (`email`/`webhook`), `emails` or `url, format`, `secret` (webhook; read only to sign), `version, createdAt, updatedAt`' });

export const CapEntity = /* @__PURE__ */ entity({
  type: 'Cap',
  key: (name: string) => ({ PK: 'CAP', SK: name }),
  fromItem: (item) => (item.members ?? {}) as Record<string, { at: number; until?: number }>,
});
dataModel: docRow(CapEntity, { section: 'Caps per stage', name: 'Cap roster', PK: '`CAP`', SK: '`watchers`, `silences`, `filterConfigs`',
  notes: '`members`: map of member id -> `{at, until?}` (epoch ms admitted; a silence\'s end)' });

export const PROVIDERS = 'PROVIDER';
/**
 * The held removals' listing hash is stored under `digest`, its name from before "digest" meant
 * only a notification: the code says `listingHash`, the items keep their attribute, so stored
 * statuses need no migration.
 */
type StoredHeldRemovals = Omit<HeldRemovals, 'listingHash'> & { digest: string };
export const ProviderEntity = /* @__PURE__ */ entity({
  type: 'ProviderStatus',
  key: (name: string) => ({ PK: PROVIDERS, SK: `PROVIDER#${name}` }),
  fromItem: (item): ProviderStatus => {
    const { PK: _pk, SK: _sk, type: _type, heldRemovals, ...status } = item;
    if (!heldRemovals) return status as unknown as ProviderStatus;
    const { digest, ...held } = heldRemovals as StoredHeldRemovals;
    return { ...(status as unknown as ProviderStatus), heldRemovals: { ...held, listingHash: digest } };
  },
});
/** A provider's status as its item stores it (the inverse of `ProviderEntity.fromItem`). */
export const providerStatusItem = ({ heldRemovals, ...status }: ProviderStatus): Omit<ProviderStatus, 'heldRemovals'> & { heldRemovals?: StoredHeldRemovals } => {
  if (!heldRemovals) return status;
  const { listingHash, ...held } = heldRemovals;
  return { ...status, heldRemovals: { ...held, digest: listingHash } };
};
dataModel: docRow(ProviderEntity, { section: 'Devices, room aggregates and lookups', name: 'Provider status', PK: '`PROVIDER`', SK: '`PROVIDER#<name>`',
  notes: 'one per device provider, written whole by the sync after each run: `lastSyncAt, lastSuccessAt, lastError {at, message, status?, trackingId?}, failingSince, staleFlaggedFor, devices, skipped {reason: n}, adjusted {change: n} (fields cut, cleaned or renamed: see "Vendor fields and their bounds"), duplicates, requests, throttledWaits, waitedMs, heldRemovals {count, seen, digest (a hash of the serials it would remove), since}, pagingFailures, backoffUntil`' });

/** Atomic sequence: each call returns the next integer for `name`, starting at 1. */
export const nextSequence = async (name: string): Promise<number> =>
  SequenceEntity.fromItem((await SequenceEntity.update(name, { expression: 'ADD #value :one SET #type = :type', values: { one: 1, type: 'Sequence' } }, undefined, 'UPDATED_NEW')) ?? {});
