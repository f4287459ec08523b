import type { AccessScope } from '#lib/shared/access';
import { uniqueSorted } from '#lib/shared/names';
import { roomsWithin } from './access';
import { filterScopeOf, type DeviceFilter } from './deviceScope';
import type { Place } from './types';

type LookupKind = keyof Place;

/** Body of `POST /filters/region|location|room`: flat fields (shape A) or `{filters}` (shape B). */
type LookupBody = Partial<DeviceFilter> & { filters?: Partial<DeviceFilter> };

/** What identifies one thing of each kind (DESIGN D11): a room by all three names, a location within its region. */
const identity: Record<LookupKind, (place: Place) => readonly string[]> = {
  region: (place) => [place.region],
  location: (place) => [place.region, place.location],
  room: (place) => [place.region, place.location, place.room],
};

/** Shape B (DESIGN D1): how many regions, (region, location) pairs or rooms the places hold. */
const countDistinct = (kind: LookupKind, places: readonly Place[]): number =>
  new Set(places.map((place) => JSON.stringify(identity[kind](place)))).size;

/** Names of the rooms in scope (rooms that hold devices) and in the caller's, deduplicated and sorted (DESIGN D1). */
export const lookupNames = async (kind: LookupKind, filter: Partial<DeviceFilter>, access: AccessScope = []): Promise<string[]> =>
  uniqueSorted((await roomsWithin(filterScopeOf(filter), access)).map((room) => room[kind]));

/** Shape A (flat body) lists unique names; shape B (a body with `filters`) counts the things in scope (and in the caller's). */
export const lookup = async (kind: LookupKind, body: LookupBody | undefined, access: AccessScope = []): Promise<string[] | number> => {
  if (body?.filters) return countDistinct(kind, await roomsWithin(filterScopeOf(body.filters), access));
  return lookupNames(kind, body ?? {}, access);
};
