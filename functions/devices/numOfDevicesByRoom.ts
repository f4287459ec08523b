import http from '#generated/routes/devicesNumOfDevicesByRoom';
import { roomsWithin } from '#lib/devices/access';
import { filterScopeOf } from '#lib/devices/deviceScope';
import { numOfDevicesByRoom } from '#lib/devices/stats';

// POST /videoDevice/all/numOfDevicesByRoom -> [{name, deviceCount, onlineDeviceCount, offlineDeviceCount}] per room in scope; 422
export const handler = http(async ({ body, principal }) => ({
  statusCode: 200,
  body: numOfDevicesByRoom(await roomsWithin(filterScopeOf(body), principal.scope)),
}));
