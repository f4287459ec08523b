import http from '#generated/routes/devicesConnected';
import { rooms } from '#lib/db/rooms';
import { scopeOf } from '#lib/devices/deviceScope';
import { devicesConnected } from '#lib/devices/stats';

// POST /videoDevice/all/devicesConnected -> [connected devices in scope]; 422 missing or empty filter field
export const handler = http(async ({ body }) => ({
  statusCode: 200,
  body: devicesConnected(await rooms.inScope(scopeOf(body))),
}));
