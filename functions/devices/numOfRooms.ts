import http from '#generated/routes/devicesNumOfRooms';
import { rooms } from '#lib/db/rooms';
import { scopeOf } from '#lib/devices/deviceScope';
import { numOfRooms } from '#lib/devices/stats';

// POST /videoDevice/room/numOfRooms -> {totalRooms} (rooms in scope that hold devices); 422
export const handler = http(async ({ body }) => ({
  statusCode: 200,
  body: numOfRooms(await rooms.inScope(scopeOf(body))),
}));
