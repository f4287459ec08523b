import type { Place } from '#lib/devices/types';
import type { InhibitedBy } from '#lib/watchers/types';
import type { SuppressedBy } from '#lib/alarms/types';

/*
 * The rules of inhibition (docs/guide/rules/alarms.md): where a watcher's parent
 * condition is judged for one of its alarms, and whether it holds there, from facts the engine
 * already keeps (room aggregates, location summaries, the parent watcher's firing alarms). Pure:
 * the evaluator (../suppress.ts) and the notifier (lib/notify) read the facts (../facts.ts) and ask here.
 */

/** Where a parent condition is judged: a room, or a location (no `room`). */
export interface ParentScope {
  region: string;
  location: string;
  room?: string;
}

/** Devices and how many of them are offline, in a room or a location (from the rollups). */
export interface OnlineCounts {
  deviceCount: number;
  offline: number;
}

/** What the parent conditions are judged on: counts by scope key, and each parent watcher's firing alarms' places. */
export interface ParentFacts {
  counts: ReadonlyMap<string, OnlineCounts>;
  firing: ReadonlyMap<string, readonly Place[]>;
}

const overRoom = (parent: InhibitedBy): boolean => parent.condition === 'roomOffline' || (parent.condition === 'watcher' && parent.over === 'room');

/**
 * The parent a watcher is inhibited by, or none when its chain of parent watchers leads back to it:
 * two PUTs racing can store a cycle the write check (../parents.ts) did not see, and
 * watchers suppressing each other would never tell anything (docs/guide/rules/alarms.md "A cycle of parent watchers suppresses nothing"). `byId` holds every watcher.
 */
export const effectiveParent = (watcher: { id: string; inhibitedBy?: InhibitedBy }, byId: ReadonlyMap<string, { inhibitedBy?: InhibitedBy }>): InhibitedBy | undefined => {
  const seen = new Set<string>([watcher.id]);
  for (let next = watcher.inhibitedBy; next?.condition === 'watcher'; next = byId.get(next.watcherId)?.inhibitedBy) {
    if (seen.has(next.watcherId)) return undefined;
    seen.add(next.watcherId);
  }
  return watcher.inhibitedBy;
};

/** The room or the location of `place` the condition is judged over. */
export const parentScope = (parent: InhibitedBy, place: Place): ParentScope =>
  overRoom(parent) ? { region: place.region, location: place.location, room: place.room } : { region: place.region, location: place.location };

export const scopeKey = (scope: ParentScope): string => JSON.stringify([scope.region, scope.location, ...(scope.room === undefined ? [] : [scope.room])]);

/** One parent episode per inhibited watcher and scope: what its marker and its digests are keyed by. */
export const episodeKey = (watcherId: string, scope: ParentScope): string => `${watcherId}:${scopeKey(scope)}`;

const within = (place: Place, scope: ParentScope) =>
  place.region === scope.region && place.location === scope.location && (scope.room === undefined || place.room === scope.room);

/**
 * Whether the parent condition holds over `scope`: every device of the room offline (a room with
 * devices), at least `percent`% of the location's devices offline, or a firing alarm of the parent
 * watcher inside the scope. Unknown counts hold nothing.
 */
export const parentHolds = (parent: InhibitedBy, scope: ParentScope, facts: ParentFacts): boolean => {
  if (parent.condition === 'watcher') return (facts.firing.get(parent.watcherId) ?? []).some((place) => within(place, scope));
  const counts = facts.counts.get(scopeKey(scope));
  if (!counts || counts.deviceCount <= 0 || counts.offline <= 0) return false;
  if (parent.condition === 'roomOffline') return counts.offline >= counts.deviceCount;
  return counts.offline * 100 >= parent.percent * counts.deviceCount;
};

/** What an alarm raised now carries while the parent holds over its place, for the episode that began at `since`. */
export const suppressionOf = (parent: InhibitedBy, scope: ParentScope, since: string): SuppressedBy => ({ ...parent, ...scope, since });

/** The same parent episode: the same condition over the same scope, begun at the same instant. */
export const sameEpisode = (a: SuppressedBy, b: SuppressedBy): boolean =>
  a.since === b.since && a.condition === b.condition && scopeKey(a) === scopeKey(b);

const placeName = (scope: ParentScope) => [scope.region, scope.location, ...(scope.room === undefined ? [] : [scope.room])].join(' / ');

/** The parent problem in words: "location EMEA / London: 37% of devices offline". */
export const parentProblem = (parent: InhibitedBy, scope: ParentScope, facts: ParentFacts, parentName?: string): string => {
  const where = `${scope.room === undefined ? 'location' : 'room'} ${placeName(scope)}`;
  if (parent.condition === 'watcher') return `${where}: watcher "${parentName ?? parent.watcherId}" firing`;
  const counts = facts.counts.get(scopeKey(scope));
  if (parent.condition === 'roomOffline') return `${where}: all ${counts ? `${counts.deviceCount} ` : ''}devices offline`;
  const share = counts && counts.deviceCount > 0 ? Math.round((counts.offline * 100) / counts.deviceCount) : parent.percent;
  return `${where}: ${share}% of devices offline`;
};
