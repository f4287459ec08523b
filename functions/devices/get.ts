import { http } from '#lib/http';
import { devices } from '#lib/db/devices';
import { toDevice } from '#lib/devices/types';
import validate from '#schemas/generated/devicesBySerialNumber';

// POST /videoDevice/{devicesn} -> Device; 404 unknown serial number (DESIGN D4); 422 invalid input
export const handler = http<undefined, { devicesn: string }>({ validate, invalidStatus: 422 }, async ({ path }) => ({
  statusCode: 200,
  body: toDevice(await devices.get(path.devicesn)),
}));
