import http from '#generated/routes/devicesRoomStatusCount';
import { countsIn } from '#lib/devices/counts';
import { roomStatusCount } from '#lib/devices/stats';

// POST /videoDevice/room/roomStatusCount -> {TotalRooms, CriticalStatus, MajorStatus, MinorStatus, InfoStatus, OKStatus}; 422
export const handler = http(async ({ body, principal }) => ({
  statusCode: 200,
  body: roomStatusCount(await countsIn(body, principal.scope)),
}));
