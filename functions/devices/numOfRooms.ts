import http from '#generated/routes/devicesNumOfRooms';
import { countsIn } from '#lib/devices/counts';
import { numOfRooms } from '#lib/devices/stats';

// POST /videoDevice/room/numOfRooms -> {totalRooms} (rooms in scope that hold devices); 422
export const handler = http(async ({ body, principal }) => ({
  statusCode: 200,
  body: numOfRooms(await countsIn(body, principal.scope)),
}));
