import type { Place } from '#lib/devices/types';

/** A room's identity inside keys: each name URI-encoded, so `#` in a name cannot collide. */
export const roomId = (place: Place): string => [place.region, place.location, place.room].map(encodeURIComponent).join('#');
