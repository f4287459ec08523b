import { error, event, name, type RouteDoc, type Schema } from './common';

/** Lookup fields are optional; `all` = no narrowing; an empty string is refused. */
const field: Schema = { ...name(), description: 'a non-empty name without control characters, or "all"' };
const fields = { regionName: field, locationName: field, roomName: field };

const lookupBody: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: { ...fields, filters: { type: 'object', additionalProperties: false, properties: fields } },
  // shape B: a body with `filters` carries nothing else (DESIGN D1)
  if: { properties: { filters: { type: 'object' } }, required: ['filters'] },
  then: { maxProperties: 1, description: 'either flat filter fields or only a "filters" object' },
};

const lookupEvent = (): Schema => {
  const schema = event({}) as { properties: Record<string, Schema> };
  schema.properties.body = lookupBody;
  return schema;
};

export const events = {
  lookupsByFilter: lookupEvent(),
  lookupsByZone: event({ path: { zone: name() } }),
};

const names: Schema = { type: 'array', items: { type: 'string' } };
const lookup = (what: string): RouteDoc => ({
  summary: `${what} names holding devices, narrowed by regionName/locationName/roomName ("all" = any); with a "filters" object: their count`,
  answers: {
    200: { description: 'Shape A (flat body): sorted distinct names. Shape B (body with "filters"): their number', schema: { oneOf: [names, { type: 'integer', minimum: 0 }] } },
    400: error('Invalid body, each offending field named'),
  },
});

export const docs: Record<string, RouteDoc> = {
  lookupsRegion: lookup('Region'),
  lookupsLocation: lookup('Location'),
  lookupsRoom: lookup('Room'),
  lookupsLocationsByZone: {
    summary: 'Number of locations in the region named zone',
    answers: { 200: { description: 'The count', schema: { type: 'integer', minimum: 0 } }, 400: error('Invalid zone') },
  },
  lookupsVideoDevices: { summary: 'Every device serial number, sorted', answers: { 200: { description: 'Serial numbers', schema: names } } },
};
