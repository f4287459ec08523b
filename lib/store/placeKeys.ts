import type { Place } from '#lib/devices/types';

/* The identities of rooms and locations inside keys: pure, so planners may check key sizes without a store client. */

/** A room's identity inside keys: each name URI-encoded, so `#` in a name cannot collide. */
export const roomId = (place: Place): string => [place.region, place.location, place.room].map(encodeURIComponent).join('#');
export const placeOfRoom = (room: string): Place => {
  const [region, location, name] = room.split('#').map(decodeURIComponent);
  return { region: region!, location: location!, room: name! };
};
/** A location's identity inside keys (its summary's `LOCATION#<region>#<location>`). */
export const locationId = (place: Pick<Place, 'region' | 'location'>): string => [place.region, place.location].map(encodeURIComponent).join('#');
