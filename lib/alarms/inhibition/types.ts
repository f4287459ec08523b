import type { InhibitedBy } from '#lib/watchers/types';
import type { ParentPlace } from './pure/rules';

/**
 * One parent episode (docs/guide/rules/alarms.md "A parent episode is announced once and released once, from a marker per episode"): a watcher's parent condition holding over
 * one room or location since `since`. Opened by the evaluator before the first alarm it suppresses,
 * announced once (one digest), released and deleted by the notifier once the parent stopped holding.
 */
export interface Episode {
  key: string;
  watcherId: string;
  parent: InhibitedBy;
  scope: ParentPlace;
  since: string;
  announced?: boolean;
  releasedAt?: string;
}
