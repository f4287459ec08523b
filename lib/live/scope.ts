import { ALL, inFilterScope, filterScopeOf } from '#lib/devices/deviceScope';
import type { Place } from '#lib/devices/types';
import type { LiveFilter } from './types';

/*
 * A subscription's scope as one key, so that a change reaches its subscribers by key instead
 * of by reading every connection: the scope key of a filter is its three names (`all` where it
 * does not narrow), and a change in one room concerns exactly the scopes made of that room's
 * names or `all` in each place: at most 2^3 = 8 keys. The same matching as device queries:
 * `all`/`all`/`Room 1` holds Room 1 of every location.
 */

/** Every filter field is a name of 1..256 characters or `all`; the key escapes each one. */
const part = (name: string) => encodeURIComponent(name);

export const filterScopeKey = (filter: LiveFilter): string => [filter.regionName, filter.locationName, filter.roomName].map(part).join('#');

/** The scope keys whose subscribers must hear of a change in `place` (deduplicated). */
export const filterScopeKeysOf = (place: Place): string[] => {
  const keys = new Set<string>();
  for (const regionName of [place.region, ALL])
    for (const locationName of [place.location, ALL])
      for (const roomName of [place.room, ALL]) keys.add(filterScopeKey({ regionName, locationName, roomName }));
  return [...keys];
};

/** The filter that watches everything, a connection's scope until it subscribes to another. */
export const EVERYTHING: LiveFilter = { regionName: ALL, locationName: ALL, roomName: ALL };

/** Whether a room lies in a filter's scope (what the keys encode; for checks and tests). */
export const covers = (filter: LiveFilter, place: Place): boolean => inFilterScope(filterScopeOf(filter), place);
