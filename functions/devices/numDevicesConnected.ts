import { http } from '#lib/http';
import { rooms } from '#lib/db/rooms';
import { scopeOf, type DeviceFilter } from '#lib/devices/filter';
import { numDevicesConnected } from '#lib/devices/stats';
import validate from '#schemas/generated/devicesFilter';

// POST /videoDevice/room/numDevicesConnected -> {total, online, offline}; 422
export const handler = http<DeviceFilter>({ validate, invalidStatus: 422 }, async ({ body }) => ({
  statusCode: 200,
  body: numDevicesConnected(await rooms.inScope(scopeOf(body))),
}));
