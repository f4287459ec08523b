import http from '#generated/routes/liveRooms';
import { roomsWithin } from '#lib/devices/access';
import { scopeOf } from '#lib/devices/deviceScope';

// POST /live/rooms {regionName, locationName, roomName} -> [{region, location, room, roomStatus, deviceCount, online, offline}] within the caller's scope; 422
export const handler = http(async ({ body, principal }) => ({
  statusCode: 200,
  body: await roomsWithin(scopeOf(body), principal.scope),
}));
