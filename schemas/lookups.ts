/** Lookups: names and counts of what holds devices (spec "filters/*" lookups; DESIGN D1, D2): 400. */
import { count, either, error, list, name, routesOf, SINGLE_LINE, SINGLE_LINE_RULE, Type } from './shared';

/** Lookup fields are optional; `all` = no narrowing; an empty string is refused. */
const field = Type.String({ minLength: 1, maxLength: 256, pattern: SINGLE_LINE, description: `a non-empty name ${SINGLE_LINE_RULE}, or "all"` });
const fields = { regionName: Type.Optional(field), locationName: Type.Optional(field), roomName: Type.Optional(field) };

const lookupBody = Type.Object(
  { ...fields, filters: Type.Optional(Type.Object(fields, { additionalProperties: false })) },
  {
    additionalProperties: false,
    // shape B: a body with `filters` carries nothing else (DESIGN D1)
    if: { properties: { filters: { type: 'object' } }, required: ['filters'] },
    then: { maxProperties: 1, description: 'either flat filter fields or only a "filters" object' },
  },
);
const names = Type.Array(Type.String());
const invalid = error('Invalid body, each offending field named');

const api = routesOf({ permission: 'fleet:read', invalidStatus: 400 });

const lookup = (what: string, path: string) =>
  api(
    'POST',
    path,
    `${what} names holding devices, narrowed by regionName/locationName/roomName ("all" = any); with a "filters" object: their count`,
    {
      request: { body: lookupBody, bodyOptional: true },
      responses: {
        200: {
          description: 'Shape A (flat body): sorted distinct names. Shape B (body with "filters"): their number',
          schema: either(names, Type.Integer({ minimum: 0 })),
        },
        400: invalid,
      },
    },
  );

export const routes = {
  region: lookup('Region', 'filters/region'),
  location: lookup('Location', 'filters/location'),
  room: lookup('Room', 'filters/room'),
  locationsByZone: api('GET', 'filters/location/byzone/{zone}', 'Number of locations in the region named zone', {
    request: { path: { zone: name() } },
    responses: { 200: count(), 400: error('Invalid zone') },
  }),
  videoDevices: api('GET', 'filters/videodevices', 'Every device serial number, sorted', {
    responses: { 200: list('Serial numbers', Type.String()) },
  }),
};
