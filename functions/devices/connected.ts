import http from '#generated/routes/devicesConnected';
import { countsIn } from '#lib/devices/counts';
import { devicesConnected } from '#lib/devices/stats';

// POST /videoDevice/all/devicesConnected -> [connected devices in scope]; 422 missing or empty filter field
export const handler = http(async ({ body, principal }) => ({
  statusCode: 200,
  body: devicesConnected(await countsIn(body, principal.scope)),
}));
