import http from '#generated/routes/devicesNumDevicesConnected';
import { countsIn } from '#lib/devices/counts';
import { numDevicesConnected } from '#lib/devices/stats';

// POST /videoDevice/room/numDevicesConnected -> {total, online, offline}; 422
export const handler = http(async ({ body, principal }) => ({
  statusCode: 200,
  body: numDevicesConnected(await countsIn(body, principal.scope)),
}));
