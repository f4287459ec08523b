import { event, name, type Schema } from './common';

/** Device filter parameters: all three required, non-empty; `all` = no narrowing (DESIGN D10). */
const filterField: Schema = { ...name(), description: 'a non-empty name or "all"' };
const deviceFilter: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['regionName', 'locationName', 'roomName'],
  properties: { regionName: filterField, locationName: filterField, roomName: filterField },
};

/** `{devicesn}` and refresh take an empty-object body, or none at all. */
const emptyBody: Schema = { type: 'object', additionalProperties: false, maxProperties: 0, description: 'an empty object' };
const bySerialNumber = (): Schema => {
  const schema = event({ path: { devicesn: name() } }) as { properties: Record<string, Schema> };
  schema.properties.body = emptyBody;
  return schema;
};

export const events = {
  devicesFilter: event({ body: deviceFilter }),
  devicesAllDevices: event({
    body: deviceFilter,
    query: {
      limit: { type: 'string', pattern: '^([1-9][0-9]{0,2}|1000)$', description: 'an integer from 1 to 1000' },
      cursor: { type: 'string', minLength: 1, maxLength: 2048, description: 'a nextCursor this API answered' },
    },
  }),
  devicesBySerialNumber: bySerialNumber(),
};
