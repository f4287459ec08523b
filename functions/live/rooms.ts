import { http } from '#lib/http';
import { rooms } from '#lib/db/rooms';
import { scopeOf, type DeviceFilter } from '#lib/devices/filter';
import validate from '#schemas/generated/liveRooms';

// POST /live/rooms {regionName, locationName, roomName} -> [{region, location, room, roomStatus, deviceCount, online, offline}]; 422
export const handler = http<DeviceFilter>({ validate, invalidStatus: 422 }, async ({ body }) => ({
  statusCode: 200,
  body: await rooms.inScope(scopeOf(body)),
}));
