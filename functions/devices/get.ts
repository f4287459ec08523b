import http from '#generated/routes/devicesGet';
import { deviceWithin } from '#lib/devices/access';
import { toDevice } from '#lib/devices/types';

// POST /videoDevice/{devicesn} -> Device; 404 unknown serial number (DESIGN D4) or outside the caller's scope; 422 invalid input
export const handler = http(async ({ path, principal }) => ({
  statusCode: 200,
  body: toDevice(await deviceWithin(path.devicesn, principal.scope)),
}));
