/**
 * The location-profile routes' work (docs/guide/rules/config.md "Location profiles: one item per location, room overrides inside it, written whole"): read,
 * replace, delete and list profiles. Writes need config:write, which no scoped principal holds;
 * reads answer within the caller's scope, every other location 404 as if it had no profile.
 */
import * as store from '#lib/locations/repository';
import type { Page } from '#lib/store/paging';
import { Invalid, NotFound } from '#lib/shared/errors';
import { isUnscoped, placeInAccessScope, type AccessScope } from '#lib/shared/access';
import { locationId } from '#lib/store/placeKeys';
import { checkProfile } from './pure/hours';
import type { LocationProfile, ProfileInput } from './types';

type Location = { region: string; location: string };

/** DynamoDB's bound on a sort key, in bytes; a profile's sort key is the location's encoded identity (ASCII). */
const SORT_KEY_BYTES = 1024;

/** 422 when the names cannot become the profile's key (they could not name a stored location either: lib/store/placeKeys.ts). */
const keyable = (place: Location): Location => {
  if (locationId(place).length <= SORT_KEY_BYTES) return place;
  const field = encodeURIComponent(place.region).length >= encodeURIComponent(place.location).length ? 'path.region' : 'path.location';
  throw new Invalid(`${field} is too long: region and location, URI-encoded, hold at most ${SORT_KEY_BYTES} characters together`, [
    { field, message: `region and location, URI-encoded, hold at most ${SORT_KEY_BYTES} characters together` },
  ]);
};

const noProfile = ({ region, location }: Location) => new NotFound(`Location ${location} of region ${region} has no profile`);

/** A location's profile; 404 when it has none or lies outside the caller's scope. */
export const getProfile = async (place: Location, scope: AccessScope = []): Promise<LocationProfile> => {
  const profile = placeInAccessScope(scope, place) ? await store.find(keyable(place)) : undefined;
  if (!profile) throw noProfile(place);
  return profile;
};

/** Stores a location's profile whole (creating or replacing it; last write wins); 422 naming each bad field. */
export const putProfile = async (place: Location, input: ProfileInput, updatedBy: string): Promise<LocationProfile> => {
  keyable(place);
  const checked = checkProfile(input);
  if ('problems' in checked) throw new Invalid(checked.problems.map((p) => p.message).join('; '), checked.problems);
  return store.put({ region: place.region, location: place.location, ...checked.profile, updatedBy, updatedAt: new Date().toISOString() });
};

/** Deletes a location's profile; 404 when it has none. */
export const removeProfile = async (place: Location): Promise<void> => {
  if (!(await store.remove(keyable(place)))) throw noProfile(place);
};

/** Profiles answered per page when no limit is asked. */
const DEFAULT_PROFILES_PAGE = 100;

/** One page of the profiles by region then location; a scoped caller's holds those within its scope (and may be short). */
export const listProfiles = async (query: { limit?: string; cursor?: string }, scope: AccessScope = []): Promise<Page<LocationProfile>> => {
  const limit = query.limit ? Number(query.limit) : DEFAULT_PROFILES_PAGE;
  return store.page(limit, query.cursor, isUnscoped(scope) ? undefined : (profile) => placeInAccessScope(scope, profile));
};

/** The zone of the location (or room) a maintenance window's matchers pin, when its profile names one. */
export const placeTimeZone = async (matchers: { region?: string; location?: string; room?: string }): Promise<string | undefined> => {
  if (matchers.region === undefined || matchers.location === undefined) return undefined;
  const place = { region: matchers.region, location: matchers.location };
  if (locationId(place).length > SORT_KEY_BYTES) return undefined;
  const profile = await store.find(place);
  return (matchers.room === undefined ? undefined : profile?.rooms.find((entry) => entry.room === matchers.room)?.timeZone) ?? profile?.timeZone;
};
