import type { Place } from '#lib/shared/place';

/* The identities of rooms and locations inside keys: pure, so planners may check key sizes without a store client. */

/** A room's identity inside keys: each name URI-encoded, so `#` in a name cannot collide. */
export const roomId = (place: Place): string => [place.region, place.location, place.room].map(encodeURIComponent).join('#');
export const placeOfRoom = (room: string): Place => {
  const [region, location, name] = room.split('#').map(decodeURIComponent);
  return { region: region!, location: location!, room: name! };
};
/** A location's identity inside keys (its summary's `LOCATION#<region>#<location>`). */
export const locationId = (place: Pick<Place, 'region' | 'location'>): string => [place.region, place.location].map(encodeURIComponent).join('#');

/** The longest prefix before a location's identity in a sort key (`LOCATION#`, the summaries' index key). */
const BEFORE_LOCATION_BYTES = 'LOCATION#'.length;

/** DynamoDB's bound on a sort key, in bytes (encoded names are ASCII: one byte a character). */
const SORT_KEY_BYTES = 1024;
/** What precedes a URI-encoded serial number in the longest sort key holding one (alarm history: `<clearedAt>#<watcher id>#`). */
const BEFORE_SERIAL_BYTES = 64;

/** The field whose names cannot become the keys the device would be stored under, if any (DESIGN §3; docs/adr/0174). */
export const oversizedField = (device: { devicesn: string; details: Place }): string | undefined => {
  if (encodeURIComponent(device.devicesn).length > SORT_KEY_BYTES - BEFORE_SERIAL_BYTES) return 'devicesn';
  const roomFits = roomId(device.details).length <= SORT_KEY_BYTES;
  const locationFits = BEFORE_LOCATION_BYTES + locationId(device.details).length <= SORT_KEY_BYTES;
  if (roomFits && locationFits) return undefined;
  const names = (['region', 'location', 'room'] as const).slice(0, roomFits ? 2 : 3);
  const size = (name: (typeof names)[number]) => encodeURIComponent(device.details[name]).length;
  return `details.${names.reduce((longest, next) => (size(next) > size(longest) ? next : longest))}`;
};
