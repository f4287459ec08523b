import { http } from '#lib/http';
import { rooms } from '#lib/db/rooms';
import { scopeOf, type DeviceFilter } from '#lib/devices/filter';
import { totalDevices } from '#lib/devices/stats';
import validate from '#schemas/generated/devicesFilter';

// POST /videoDevice/all/totalDevices -> [device count in scope]; 422 missing or empty filter field
export const handler = http<DeviceFilter>({ validate, invalidStatus: 422 }, async ({ body }) => ({
  statusCode: 200,
  body: totalDevices(await rooms.inScope(scopeOf(body))),
}));
