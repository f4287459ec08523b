import http from '#generated/routes/lookupsVideoDevices';
import { serialNumbersWithin } from '#lib/devices/access';

// GET /filters/videodevices -> unique device serial numbers (within the caller's scope), sorted
export const handler = http(async ({ principal }) => ({
  statusCode: 200,
  body: await serialNumbersWithin(principal.scope),
}));
