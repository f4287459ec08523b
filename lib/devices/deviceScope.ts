import type { Place } from './types';

/** The wildcard of device-query and lookup bodies; case-sensitive (DESIGN D10). */
export const ALL = 'all';

/** Device filter parameters (spec): all three required in device queries. */
export interface DeviceFilter {
  regionName: string;
  locationName: string;
  roomName: string;
}

/** What a device filter narrows to, a filter scope: an absent field means no narrowing. */
export type FilterScope = Partial<Place>;

const narrowing = (value: string | undefined): string | undefined =>
  value === undefined || value === ALL ? undefined : value;

export const filterScopeOf = (filter: Partial<DeviceFilter>): FilterScope => {
  const scope: FilterScope = {};
  const region = narrowing(filter.regionName);
  const location = narrowing(filter.locationName);
  const room = narrowing(filter.roomName);
  if (region !== undefined) scope.region = region;
  if (location !== undefined) scope.location = location;
  if (room !== undefined) scope.room = room;
  return scope;
};

export const inFilterScope = (scope: FilterScope, place: Place): boolean =>
  (scope.region === undefined || scope.region === place.region) &&
  (scope.location === undefined || scope.location === place.location) &&
  (scope.room === undefined || scope.room === place.room);
