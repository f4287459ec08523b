import type { LocationProfile } from '#lib/locations/types';
import { LOCATION_PROFILES, LocationProfileEntity as Profiles } from '#lib/locations/entities';
import { listed } from '#lib/store/paging';
import { queryAll } from '#lib/store/query';
import { EXISTS } from '#lib/store/table';

// Location profiles (docs/guide/rules/config.md "Location profiles: one item per location, room overrides inside it, written whole"): one partition sorted by the location's encoded identity, one Query, no index read (nothing lags).
// A profile is one item, its rooms' overrides inside it, written whole: two PUTs racing leave one of them whole (last write wins).
const { fromItem } = Profiles;
type Location = { region: string; location: string };

/** One location's profile (strongly consistent), if it has one. */
export const find = async (place: Location): Promise<LocationProfile | undefined> => Profiles.find(place, { consistent: true });

/** A location's identity in the map `all` answers. */
export const locationKey = (place: Location): string => Profiles.key({ region: place.region, location: place.location }).SK;

/** Stores a profile whole, over any before it. */
export const put = async (profile: LocationProfile): Promise<LocationProfile> => {
  await Profiles.put({ region: profile.region, location: profile.location }, { ...profile });
  return profile;
};

/** Deletes a location's profile; false when it had none. */
export const remove = async (place: Location): Promise<boolean> => Profiles.remove(place, EXISTS);

const listQuery = { pk: LOCATION_PROFILES, consistent: true };

/** One page of the profiles by region then location (encoded); with `keep`, of those it accepts (a scoped caller's), the same cursors. */
export const page = listed(() => listQuery, 'location-profiles', fromItem).page;

/** Every profile (one Query of their partition, consistent), by `locationKey`: what availability counts rooms in. Locations are few next to devices. */
export const all = async (): Promise<Map<string, LocationProfile>> =>
  new Map((await queryAll(listQuery)).map((item) => [String(item.SK), fromItem(item)]));
