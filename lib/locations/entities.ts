import type { LocationProfile, RoomHours } from '#lib/locations/types';
import { docRow, entity, texts } from '#lib/store/entity';
import { locationId } from '#lib/store/placeKeys';

/* Location profiles (docs/guide/rules/config.md "Location profiles: one item per location, room overrides inside it, written whole"): a location's business hours and zone, its rooms' overrides inside it. */

export const LOCATION_PROFILES = 'LOCATIONPROFILE';
export const LocationProfileEntity = /* @__PURE__ */ entity({
  type: 'LocationProfile',
  key: (place: { region: string; location: string }) => ({ PK: LOCATION_PROFILES, SK: locationId(place) }),
  fromItem: (item): LocationProfile => ({
    ...texts(item, 'region', 'location'),
    ...(typeof item.businessHours === 'string' ? { businessHours: item.businessHours } : {}),
    timeZone: String(item.timeZone),
    rooms: ((item.rooms ?? []) as RoomHours[]).map(({ room, businessHours, timeZone }) => ({
      room: String(room),
      ...(typeof businessHours === 'string' ? { businessHours } : {}),
      ...(typeof timeZone === 'string' ? { timeZone } : {}),
    })),
    ...texts(item, 'updatedBy', 'updatedAt'),
  }),
});
dataModel: docRow(LocationProfileEntity, {
  section: 'Location profiles',
  PK: '`LOCATIONPROFILE`',
  SK: '`enc(region)#enc(location)`',
  notes: '`region, location, timeZone, businessHours?, rooms: [{room, businessHours?, timeZone?}], updatedBy, updatedAt`; written whole (last write wins)',
});
