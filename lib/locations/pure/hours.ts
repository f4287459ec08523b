import { timeZoneName } from '#lib/shared/zone';
import { parseBusinessHours, type BusinessHours } from '#lib/rollups/pure/businessAvailability';
import { ALL_DAY, type LocationProfile, type ProfileInput, type RoomHours } from '../types';

/*
 * A profile's checks and the calendar a room is counted in (docs/guide/rules/config.md "Location profiles: one item per location, room overrides inside it, written whole"):
 * room override > location profile > fleet setting (BUSINESS_HOURS in BUSINESS_TIME_ZONE) > none
 * (24 h). Hours and zone resolve apart: a room that names only a zone keeps its location's (or the
 * fleet's) business hours on its own wall clock. Pure.
 */

type Problem = { field: string; message: string };
type CheckedProfile = Pick<LocationProfile, 'businessHours' | 'timeZone' | 'rooms'>;

const hoursProblem = (text: string, field: string): Problem | undefined => {
  if (text === ALL_DAY) return undefined;
  const parsed = parseBusinessHours(text);
  return 'problems' in parsed ? { field, message: `${field}: ${parsed.problems[0]!.message}, or "${ALL_DAY}"` } : undefined;
};

/** The profile to store (zones in Intl's letter case, hours trimmed), or every problem with its field (422). */
export const checkProfile = (input: ProfileInput): { profile: CheckedProfile } | { problems: Problem[] } => {
  const problems: Problem[] = [];
  const zoneOf = (name: string, field: string): string => {
    const zone = timeZoneName(name);
    if (!zone) problems.push({ field, message: `${field}: ${name} is not an IANA time zone` });
    return zone ?? name;
  };
  const hoursOf = (text: string | undefined, field: string): string | undefined => {
    if (text === undefined) return undefined;
    const problem = hoursProblem(text.trim(), field);
    if (problem) problems.push(problem);
    return text.trim();
  };
  const timeZone = zoneOf(input.timeZone, 'body.timeZone');
  const businessHours = hoursOf(input.businessHours, 'body.businessHours');
  const seen = new Set<string>();
  const rooms = (input.rooms ?? []).map((entry, i): RoomHours => {
    const field = `body.rooms[${i}]`;
    if (seen.has(entry.room)) problems.push({ field: `${field}.room`, message: `${field}.room: room ${entry.room} is listed twice` });
    seen.add(entry.room);
    if (entry.businessHours === undefined && entry.timeZone === undefined) {
      problems.push({ field, message: `${field}: name businessHours, timeZone or both` });
    }
    const hours = hoursOf(entry.businessHours, `${field}.businessHours`);
    const zone = entry.timeZone === undefined ? undefined : zoneOf(entry.timeZone, `${field}.timeZone`);
    return { room: entry.room, ...(hours === undefined ? {} : { businessHours: hours }), ...(zone === undefined ? {} : { timeZone: zone }) };
  });
  if (problems.length > 0) return { problems };
  return { profile: { ...(businessHours === undefined ? {} : { businessHours }), timeZone, rooms } };
};

/** The fleet's setting: BUSINESS_HOURS (parsed, in BUSINESS_TIME_ZONE) or none. */
interface FleetHours {
  hours?: BusinessHours;
  timeZone?: string;
}

/** Where a room's hours came from. */
type HoursSource = 'room' | 'location' | 'fleet' | 'none';

/** The calendar a room is counted in: its business hours (undefined: the whole day) and its zone. */
export interface RoomCalendar {
  hours: BusinessHours | undefined;
  timeZone: string;
  source: HoursSource;
}

/** A stored hours text in a zone; undefined for `24h`. Stored texts were checked: one that no longer parses is a bug. */
const parsedIn = (text: string, timeZone: string): BusinessHours | undefined => {
  if (text === ALL_DAY) return undefined;
  const parsed = parseBusinessHours(text, timeZone);
  if ('problems' in parsed) throw new Error(`stored business hours ${text} in ${timeZone}: ${parsed.problems[0]!.message}`);
  return parsed;
};

/** The calendar of `room` of a location with `profile` (if any), the fleet's setting below it. */
export const calendarOf = (profile: Pick<LocationProfile, 'businessHours' | 'timeZone' | 'rooms'> | undefined, room: string, fleet: FleetHours): RoomCalendar => {
  const own = profile?.rooms.find((entry) => entry.room === room);
  const timeZone = own?.timeZone ?? profile?.timeZone ?? fleet.hours?.timeZone ?? fleet.timeZone ?? 'UTC';
  if (own?.businessHours !== undefined) return { hours: parsedIn(own.businessHours, timeZone), timeZone, source: 'room' };
  if (profile?.businessHours !== undefined) return { hours: parsedIn(profile.businessHours, timeZone), timeZone, source: 'location' };
  if (fleet.hours) return { hours: { ...fleet.hours, timeZone }, timeZone, source: 'fleet' };
  return { hours: undefined, timeZone, source: 'none' };
};
