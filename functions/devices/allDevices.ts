import http from '#generated/routes/devicesAllDevices';
import { devices } from '#lib/devices/repository/devices';
import { roomsWithin } from '#lib/devices/access';
import { DEVICE_CSV } from '#lib/devices/csv';
import { filterScopeOf } from '#lib/devices/deviceScope';
import { isUnscoped } from '#lib/shared/access';
import { csvAnswer } from '#lib/shared/csv';
import { withDeviceMaintenance } from '#lib/maintenance/marks';

// POST /videoDevice/all/allDevices -> [Device] in scope; with ?limit / ?cursor -> {items, nextCursor}; 422
// ?format=csv: always a page (limit default 100) as CSV, the next page's cursor in the next-cursor header
// JSON answers mark the devices an open maintenance window holds (inMaintenance; the CSV keeps its columns, docs/guide/rules/maintenance.md "Devices and rooms show in maintenance at read time, the windows named with their end")
export const handler = http(async ({ body, query, principal }) => {
  const scope = filterScopeOf(body);
  const inFilterScope = await roomsWithin(scope, principal.scope);
  const csv = query.format === 'csv';
  const paged = csv || query.limit !== undefined || query.cursor !== undefined;
  // a cursor holds to the filter and, for a scoped caller, to its scope
  const identity = `allDevices ${JSON.stringify(scope)}${isUnscoped(principal.scope) ? '' : ` within ${JSON.stringify(principal.scope)}`}`;
  if (!paged) return { statusCode: 200, body: await withDeviceMaintenance(await devices.inRooms(inFilterScope)) };
  const page = await devices.page(inFilterScope, Number(query.limit ?? 100), query.cursor, identity);
  return csv ? csvAnswer(DEVICE_CSV, page) : { statusCode: 200, body: { ...page, items: await withDeviceMaintenance(page.items) } };
});
