import http from '#generated/routes/devicesGet';
import { devices } from '#lib/db/devices';
import { toDevice } from '#lib/devices/types';

// POST /videoDevice/{devicesn} -> Device; 404 unknown serial number (DESIGN D4); 422 invalid input
export const handler = http(async ({ path }) => ({
  statusCode: 200,
  body: toDevice(await devices.get(path.devicesn)),
}));
