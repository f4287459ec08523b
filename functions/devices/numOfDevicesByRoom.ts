import http from '#generated/routes/devicesNumOfDevicesByRoom';
import * as rooms from '#lib/db/rooms';
import { scopeOf } from '#lib/devices/deviceScope';
import { numOfDevicesByRoom } from '#lib/devices/stats';

// POST /videoDevice/all/numOfDevicesByRoom -> [{name, deviceCount, onlineDeviceCount, offlineDeviceCount}] per room in scope; 422
export const handler = http(async ({ body }) => ({
  statusCode: 200,
  body: numOfDevicesByRoom(await rooms.inScope(scopeOf(body))),
}));
