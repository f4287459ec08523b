import http from '#generated/routes/devicesTotalDevices';
import { rooms } from '#lib/db/rooms';
import { scopeOf } from '#lib/devices/deviceScope';
import { totalDevices } from '#lib/devices/stats';

// POST /videoDevice/all/totalDevices -> [device count in scope]; 422 missing or empty filter field
export const handler = http(async ({ body }) => ({
  statusCode: 200,
  body: totalDevices(await rooms.inScope(scopeOf(body))),
}));
