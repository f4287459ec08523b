import http from '#generated/routes/liveRooms';
import * as rooms from '#lib/db/rooms';
import { scopeOf } from '#lib/devices/deviceScope';

// POST /live/rooms {regionName, locationName, roomName} -> [{region, location, room, roomStatus, deviceCount, online, offline}]; 422
export const handler = http(async ({ body }) => ({
  statusCode: 200,
  body: await rooms.inScope(scopeOf(body)),
}));
