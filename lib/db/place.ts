import type { Place } from '#lib/devices/types';

/** A room's identity inside keys: each name URI-encoded, so `#` in a name cannot collide. */
export const roomId = (place: Place): string => [place.region, place.location, place.room].map(encodeURIComponent).join('#');

/** DynamoDB's bound on a sort key, in bytes (encoded names are ASCII: one byte a character). */
const SORT_KEY_BYTES = 1024;
/** What precedes a URI-encoded serial number in the longest sort key holding one (alarm history: `<clearedAt>#<watcher id>#`). */
const BEFORE_SERIAL_BYTES = 64;

/**
 * The field of a device whose names cannot become the keys it would be stored under, if any: a
 * room's identity is a whole sort key (its aggregate, its dirty mark), a serial number URI-encoded
 * part of one. The sync skips such a device like one with a malformed name.
 */
export const oversizedField = (device: { devicesn: string; details: Place }): string | undefined => {
  if (encodeURIComponent(device.devicesn).length > SORT_KEY_BYTES - BEFORE_SERIAL_BYTES) return 'devicesn';
  if (roomId(device.details).length <= SORT_KEY_BYTES) return undefined;
  const { region, location, room } = device.details;
  const names: [string, string][] = [['details.region', region], ['details.location', location], ['details.room', room]];
  const size = ([, name]: [string, string]) => encodeURIComponent(name).length;
  return names.reduce((longest, next) => (size(next) > size(longest) ? next : longest))[0];
};
