import http from '#generated/routes/lookupsVideoDevices';
import { devices } from '#lib/db/devices';

// GET /filters/videodevices -> unique device serial numbers, sorted
export const handler = http(async () => ({
  statusCode: 200,
  body: await devices.serialNumbers(),
}));
