/** Location profiles: business hours and time zone per location, per-room overrides (docs/guide/rules/config.md "Location profiles: one item per location, room overrides inside it, written whole"): invalid input is 422. */
import { ALL_DAY, MAX_ROOM_OVERRIDES } from '#lib/locations/types';
import { dateTime, error, name, ok, pagedList, recordRoutesOf, routesOf, SINGLE_LINE, strict, text, Type } from './shared';

const path = { region: name(), location: name() };

const HOURS = `business hours as BUSINESS_HOURS reads them: days (Mon..Sun, ranges such as Mon-Fri, comma lists) and HH:MM-HH:MM, e.g. "Mon-Fri 08:00-18:00" (no overnight spans); or "${ALL_DAY}": the whole day`;
const hours = Type.String({ minLength: 1, maxLength: 128, pattern: SINGLE_LINE, description: HOURS });
const zone = (what: string) => Type.String({ minLength: 1, maxLength: 64, pattern: SINGLE_LINE, description: `an IANA time zone (e.g. Europe/Berlin): ${what}` });

const roomFields = {
  room: name(),
  businessHours: Type.Optional(hours),
  timeZone: Type.Optional(zone("the room's wall clock, over the location's")),
};
const profileBody = strict({
  businessHours: Type.Optional({ ...hours, description: `${HOURS}. Absent: the fleet's BUSINESS_HOURS, read on this location's wall clock` }),
  timeZone: zone("the location's wall clock: its business hours, its unhealthy days, and the default zone of maintenance windows pinning it"),
  rooms: Type.Optional(
    Type.Array(strict(roomFields, { description: 'one room overriding its hours, its zone or both' }), {
      maxItems: MAX_ROOM_OVERRIDES,
      description: `at most ${MAX_ROOM_OVERRIDES} rooms, each once; a room's own hours and zone come before the location's`,
    }),
  ),
});

const profile = Type.Object({
  region: Type.String(),
  location: Type.String(),
  businessHours: Type.Optional(Type.String()),
  timeZone: Type.String({ description: 'as sent, in the letter case of the IANA database' }),
  rooms: Type.Array(Type.Object({ room: Type.String(), businessHours: Type.Optional(Type.String()), timeZone: Type.Optional(Type.String()) })),
  updatedBy: Type.String({ description: 'the user or service of the bearer token sent, else "api-key"' }),
  updatedAt: dateTime,
});

const invalid = error('Invalid input, each offending field named (business hours that do not read, an unknown time zone, a room listed twice, names too long for a key)');
const unknown = error("The location has no profile (or lies outside the caller's scope)");

const api = routesOf({ permission: 'fleet:read', invalidStatus: 422 });
// audited with the region and the location as the target id ("EMEA/London"): location names repeat across regions
const onProfile = recordRoutesOf({ permission: 'config:write', invalidStatus: 422 }, { path, invalid, unknown });

export const routes = {
  list: api('GET', 'locations/profiles', "The location profiles by region then location, a page at a time; a scoped caller sees its scope's", {
    ...pagedList(profile, 'Invalid limit, or a cursor not answered for the same query'),
  }),
  get: onProfile('GET', 'locations/{region}/{location}/profile', "A location's profile: its business hours, time zone and room overrides", {
    permission: 'fleet:read',
    responses: { 200: ok('The profile', profile) },
  }),
  put: onProfile('PUT', 'locations/{region}/{location}/profile', "Create or replace a location's profile whole (last write wins); availability counts its rooms in these hours and zone", {
    request: { body: profileBody },
    responses: { 200: ok('The profile as stored', profile), 404: error('Never: a location without a profile gets one') },
    audit: { targetId: { path: ['region', 'location'] } },
  }),
  remove: onProfile('DELETE', 'locations/{region}/{location}/profile', "Delete a location's profile: its rooms fall back to the fleet's setting", {
    responses: { 200: text('Confirmation') },
    audit: { targetId: { path: ['region', 'location'] } },
  }),
};
