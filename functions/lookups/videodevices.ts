import { http } from '#lib/http';
import { devices } from '#lib/db/devices';

// GET /filters/videodevices -> unique device serial numbers, sorted
export const handler = http({ invalidStatus: 400 }, async () => ({
  statusCode: 200,
  body: await devices.serialNumbers(),
}));
