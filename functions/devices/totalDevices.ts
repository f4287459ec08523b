import http from '#generated/routes/devicesTotalDevices';
import { countsIn } from '#lib/devices/counts';
import { totalDevices } from '#lib/devices/stats';

// POST /videoDevice/all/totalDevices -> [device count in scope]; 422 missing or empty filter field
export const handler = http(async ({ body, principal }) => ({
  statusCode: 200,
  body: totalDevices(await countsIn(body, principal.scope)),
}));
