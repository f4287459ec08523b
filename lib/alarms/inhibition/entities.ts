import { docRow, entity } from '#lib/store/entity';
import type { InhibitedBy } from '#lib/watchers/types';
import type { ParentPlace } from './pure/rules';
import type { Episode } from './types';

export const INHIBITIONS = 'INHIBITION';
/** A parent episode (docs/guide/rules/alarms.md "A parent episode is announced once and released once, from a marker per episode"): few at a time, in one partition, read whole by one consistent Query. */
const episodeNotes =
  '`key, watcherId, parent` (the watcher\'s `inhibitedBy`), `scope {region, location, room?}`, `since` (the episode\'s start), `announced?` (its digest stored), `releasedAt?` (its release begun); deleted once released';
export const InhibitionEpisodeEntity = /* @__PURE__ */ entity({
  type: 'InhibitionEpisode',
  key: (key: string) => ({ PK: INHIBITIONS, SK: `INHIBITION#${key}` }),
  fromItem: (item): Episode =>
    Object.assign(
      { key: String(item.key), watcherId: String(item.watcherId), parent: item.parent as InhibitedBy, scope: item.scope as ParentPlace, since: String(item.since) },
      item.announced === true ? { announced: true } : {},
      typeof item.releasedAt === 'string' ? { releasedAt: item.releasedAt } : {},
    ),
});
dataModel: docRow(InhibitionEpisodeEntity, { section: 'Notifications', name: 'Inhibition episode', PK: '`INHIBITION`', SK: '`INHIBITION#<watcherId>:<scope>`', notes: episodeNotes });
