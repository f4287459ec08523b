import http from '#generated/routes/devicesRoomStatusCount';
import { rooms } from '#lib/db/rooms';
import { scopeOf } from '#lib/devices/deviceScope';
import { roomStatusCount } from '#lib/devices/stats';

// POST /videoDevice/room/roomStatusCount -> {TotalRooms, CriticalStatus, MajorStatus, MinorStatus, InfoStatus, OKStatus}; 422
export const handler = http(async ({ body }) => ({
  statusCode: 200,
  body: roomStatusCount(await rooms.inScope(scopeOf(body))),
}));
