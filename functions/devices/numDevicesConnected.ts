import http from '#generated/routes/devicesNumDevicesConnected';
import { rooms } from '#lib/db/rooms';
import { scopeOf } from '#lib/devices/deviceScope';
import { numDevicesConnected } from '#lib/devices/stats';

// POST /videoDevice/room/numDevicesConnected -> {total, online, offline}; 422
export const handler = http(async ({ body }) => ({
  statusCode: 200,
  body: numDevicesConnected(await rooms.inScope(scopeOf(body))),
}));
