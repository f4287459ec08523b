import http from '#generated/routes/devicesGet';
import { deviceWithin } from '#lib/devices/access';
import { toDevice } from '#lib/devices/types';
import { withDeviceMaintenance } from '#lib/maintenance/marks';

// POST /videoDevice/{devicesn} -> Device; 404 unknown serial number (DESIGN D4) or outside the caller's scope; 422 invalid input
// inMaintenance while an open maintenance window holds it (docs/guide/rules/maintenance.md "Devices and rooms show in maintenance at read time, the windows named with their end")
export const handler = http(async ({ path, principal }) => {
  const [device] = await withDeviceMaintenance([toDevice(await deviceWithin(path.devicesn, principal.scope))]);
  return { statusCode: 200, body: device! };
});
