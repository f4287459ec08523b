import { http } from '#lib/http';
import { rooms } from '#lib/db/rooms';
import { scopeOf, type DeviceFilter } from '#lib/devices/filter';
import { numOfDevicesByRoom } from '#lib/devices/stats';
import validate from '#schemas/generated/devicesFilter';

// POST /videoDevice/all/numOfDevicesByRoom -> [{name, deviceCount, onlineDeviceCount, offlineDeviceCount}] per room in scope; 422
export const handler = http<DeviceFilter>({ validate, invalidStatus: 422 }, async ({ body }) => ({
  statusCode: 200,
  body: numOfDevicesByRoom(await rooms.inScope(scopeOf(body))),
}));
