import { http } from '#lib/http';
import { countsIn } from '#lib/devices/counts';
import type { DeviceFilter } from '#lib/devices/filter';
import { numOfRooms } from '#lib/devices/stats';
import validate from '#schemas/generated/devicesFilter';

// POST /videoDevice/room/numOfRooms -> {totalRooms} (rooms in scope that hold devices); 422
export const handler = http<DeviceFilter>({ validate, invalidStatus: 422 }, async ({ body }) => ({
  statusCode: 200,
  body: numOfRooms(await countsIn(body)),
}));
