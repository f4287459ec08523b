import { http } from '#lib/http';
import { rooms } from '#lib/db/rooms';
import { scopeOf, type DeviceFilter } from '#lib/devices/filter';
import { numOfRooms } from '#lib/devices/stats';
import validate from '#schemas/generated/devicesFilter';

// POST /videoDevice/room/numOfRooms -> {totalRooms} (rooms in scope that hold devices); 422
export const handler = http<DeviceFilter>({ validate, invalidStatus: 422 }, async ({ body }) => ({
  statusCode: 200,
  body: numOfRooms(await rooms.inScope(scopeOf(body))),
}));
