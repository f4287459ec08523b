import { http } from '#lib/http';
import { countsIn } from '#lib/devices/counts';
import type { DeviceFilter } from '#lib/devices/filter';
import { devicesConnected } from '#lib/devices/stats';
import validate from '#schemas/generated/devicesFilter';

// POST /videoDevice/all/devicesConnected -> [connected devices in scope]; 422 missing or empty filter field
export const handler = http<DeviceFilter>({ validate, invalidStatus: 422 }, async ({ body }) => ({
  statusCode: 200,
  body: devicesConnected(await countsIn(body)),
}));
