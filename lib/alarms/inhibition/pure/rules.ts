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
export interface ParentPlace {
  region: string;
  location: string;
  room?: string;
}

/** Devices and how many of them are offline, in a room or a location (from the rollups). */
export interface OnlineCounts {
  deviceCount: number;
  offline: number;
}

/** What the parent conditions are judged on: counts by place key, and each parent watcher's firing alarms' places. */
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
export const parentPlaceOf = (parent: InhibitedBy, place: Place): ParentPlace =>
  overRoom(parent) ? { region: place.region, location: place.location, room: place.room } : { region: place.region, location: place.location };

export const placeKey = (parentPlace: ParentPlace): string => JSON.stringify([parentPlace.region, parentPlace.location, ...(parentPlace.room === undefined ? [] : [parentPlace.room])]);

/** One parent episode per inhibited watcher and parent place: what its marker and its digests are keyed by. */
export const episodeKey = (watcherId: string, parentPlace: ParentPlace): string => `${watcherId}:${placeKey(parentPlace)}`;

const within = (place: Place, parentPlace: ParentPlace) =>
  place.region === parentPlace.region && place.location === parentPlace.location && (parentPlace.room === undefined || place.room === parentPlace.room);

/**
 * Whether the parent condition holds over `parentPlace`: every device of the room offline (a room with
 * devices), at least `percent`% of the location's devices offline, or a firing alarm of the parent
 * watcher inside that place. Unknown counts hold nothing.
 */
export const parentHolds = (parent: InhibitedBy, parentPlace: ParentPlace, facts: ParentFacts): boolean => {
  if (parent.condition === 'watcher') return (facts.firing.get(parent.watcherId) ?? []).some((place) => within(place, parentPlace));
  const counts = facts.counts.get(placeKey(parentPlace));
  if (!counts || counts.deviceCount <= 0 || counts.offline <= 0) return false;
  if (parent.condition === 'roomOffline') return counts.offline >= counts.deviceCount;
  return counts.offline * 100 >= parent.percent * counts.deviceCount;
};

/** What an alarm raised now carries while the parent holds over its place, for the episode that began at `since`. */
export const suppressionOf = (parent: InhibitedBy, parentPlace: ParentPlace, since: string): SuppressedBy => ({ ...parent, ...parentPlace, since });

/** The same parent episode: the same condition over the same place, begun at the same instant. */
export const sameEpisode = (a: SuppressedBy, b: SuppressedBy): boolean =>
  a.since === b.since && a.condition === b.condition && placeKey(a) === placeKey(b);

const placeName = (parentPlace: ParentPlace) => [parentPlace.region, parentPlace.location, ...(parentPlace.room === undefined ? [] : [parentPlace.room])].join(' / ');

/** The parent problem in words: "location EMEA / London: 37% of devices offline". */
export const parentProblem = (parent: InhibitedBy, parentPlace: ParentPlace, facts: ParentFacts, parentName?: string): string => {
  const where = `${parentPlace.room === undefined ? 'location' : 'room'} ${placeName(parentPlace)}`;
  if (parent.condition === 'watcher') return `${where}: watcher "${parentName ?? parent.watcherId}" firing`;
  const counts = facts.counts.get(placeKey(parentPlace));
  if (parent.condition === 'roomOffline') return `${where}: all ${counts ? `${counts.deviceCount} ` : ''}devices offline`;
  const share = counts && counts.deviceCount > 0 ? Math.round((counts.offline * 100) / counts.deviceCount) : parent.percent;
  return `${where}: ${share}% of devices offline`;
};
