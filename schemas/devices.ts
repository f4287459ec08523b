import { error, event, name, type RouteDoc, type Schema } from './common';

/** Device filter parameters: all three required, non-empty; `all` = no narrowing (DESIGN D10). */
const filterField: Schema = { ...name(), description: 'a non-empty name without control characters, or "all"' };
export const deviceFilter: Schema = {
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

const integer: Schema = { type: 'integer', minimum: 0 };
const device: Schema = {
  type: 'object',
  properties: {
    deviceid: { type: 'string' },
    devicesn: { type: 'string' },
    devicemodel: { type: 'string' },
    status: { type: 'object', properties: { connected: { type: 'boolean' }, inCallStatus: { type: 'string' } } },
    deviceconnected: { type: 'boolean' },
    details: { type: 'object', properties: { room: { type: 'string' }, location: { type: 'string' }, region: { type: 'string' } } },
  },
};
const invalid = error('A filter field is missing or empty, each named');
const unknown = error('No device with that serial number');
const counted = (summary: string, description: string, schema: Schema): RouteDoc => ({
  summary,
  answers: { 200: { description, schema }, 422: invalid },
});
const counters = (...names: string[]): Schema => ({
  type: 'object',
  required: names,
  properties: Object.fromEntries(names.map((n) => [n, integer])),
});

export const docs: Record<string, RouteDoc> = {
  devicesAllDevices: {
    summary: 'Devices in scope (region, location, room; "all" = any); paginated with limit/cursor',
    answers: {
      200: {
        description: 'Without limit/cursor: every device in scope. With them: one page and the cursor of the next',
        schema: {
          oneOf: [
            { type: 'array', items: device },
            { type: 'object', properties: { items: { type: 'array', items: device }, nextCursor: { type: 'string' } } },
          ],
        },
      },
      422: invalid,
    },
  },
  devicesGet: { summary: 'A device by serial number', answers: { 200: { description: 'The device', schema: device }, 404: unknown, 422: invalid } },
  devicesRefresh: {
    summary: 'Ask the provider for the live status of a device, store it, answer it',
    answers: {
      200: {
        description: 'The device with refreshInfo.lastRefresh',
        schema: { allOf: [device, { type: 'object', properties: { refreshInfo: { type: 'object', properties: { lastRefresh: { type: 'string', format: 'date-time' } } } } }] },
      },
      404: unknown,
      422: invalid,
      503: error('The device provider did not answer'),
    },
  },
  devicesTotalDevices: counted('Number of devices in scope', 'One integer in an array', { type: 'array', items: integer, minItems: 1, maxItems: 1 }),
  devicesConnected: counted('Number of connected devices in scope', 'One integer in an array', { type: 'array', items: integer, minItems: 1, maxItems: 1 }),
  devicesNumOfDevicesByRoom: counted('Device counts per room in scope', 'One item per room', {
    type: 'array',
    items: { type: 'object', properties: { name: { type: 'string' }, deviceCount: integer, onlineDeviceCount: integer, offlineDeviceCount: integer } },
  }),
  devicesNumOfRooms: counted('Number of rooms with devices in scope', 'The count', counters('totalRooms')),
  devicesNumDevicesConnected: counted('Devices in scope: total, online, offline', 'The counts', counters('total', 'online', 'offline')),
  devicesRoomStatusCount: counted(
    'Rooms in scope per status level (worst open alarm); the five levels sum to TotalRooms',
    'The counts',
    counters('TotalRooms', 'CriticalStatus', 'MajorStatus', 'MinorStatus', 'InfoStatus', 'OKStatus'),
  ),
};
