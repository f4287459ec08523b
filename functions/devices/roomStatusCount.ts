import { http } from '#lib/http';
import { countsIn } from '#lib/devices/counts';
import type { DeviceFilter } from '#lib/devices/filter';
import { roomStatusCount } from '#lib/devices/stats';
import validate from '#schemas/generated/devicesFilter';

// POST /videoDevice/room/roomStatusCount -> {TotalRooms, CriticalStatus, MajorStatus, MinorStatus, InfoStatus, OKStatus}; 422
export const handler = http<DeviceFilter>({ validate, invalidStatus: 422 }, async ({ body }) => ({
  statusCode: 200,
  body: roomStatusCount(await countsIn(body)),
}));
