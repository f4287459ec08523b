import http from '#generated/routes/liveRooms';
import { roomsWithin } from '#lib/devices/access';
import { filterScopeOf } from '#lib/devices/deviceScope';
import { withRoomMaintenance } from '#lib/maintenance/marks';

// POST /live/rooms {regionName, locationName, roomName} -> [{region, location, room, roomStatus, deviceCount, online, offline}] within the caller's scope; 422
// a room an open maintenance window of places holds also carries inMaintenance and the windows (docs/guide/rules/maintenance.md "Devices and rooms show in maintenance at read time, the windows named with their end")
export const handler = http(async ({ body, principal }) => ({
  statusCode: 200,
  body: await withRoomMaintenance(await roomsWithin(filterScopeOf(body), principal.scope)),
}));
