/**
 * Location profiles (docs/guide/rules/config.md "Location profiles: one item per location, room overrides inside it, written whole"): a location's business
 * hours and time zone, with per-room overrides inside it. Availability counts each room in its own
 * hours and zone (room > location > fleet setting > none: 24 h); maintenance windows without a
 * zone take their location's.
 */

/** What one room of a profile overrides: its business hours (or `24h`), its zone, or both. */
export interface RoomHours {
  room: string;
  businessHours?: string;
  timeZone?: string;
}

/** A profile as sent (PUT /locations/{region}/{location}/profile). */
export interface ProfileInput {
  /** `Mon-Fri 08:00-18:00` (as BUSINESS_HOURS), or `24h` (the whole day); absent: the fleet's setting. */
  businessHours?: string;
  /** IANA; the location's wall clock (business hours, unhealthy days, maintenance windows without a zone). */
  timeZone: string;
  rooms?: RoomHours[];
}

export interface LocationProfile {
  region: string;
  location: string;
  businessHours?: string;
  timeZone: string;
  rooms: RoomHours[];
  updatedBy: string;
  updatedAt: string;
}

/** Business hours that mean "the whole day": a room or location open around the clock. */
export const ALL_DAY = '24h';
/** The most room overrides one profile holds (one item: well under DynamoDB's 400 KB). */
export const MAX_ROOM_OVERRIDES = 200;
