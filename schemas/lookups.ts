import { event, name, type Schema } from './common';

/** Lookup fields are optional; `all` = no narrowing; an empty string is refused. */
const field: Schema = { ...name(), description: 'a non-empty name or "all"' };
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
