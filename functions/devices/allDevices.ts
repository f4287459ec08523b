import http from '#generated/routes/devicesAllDevices';
import { devices } from '#lib/db/devices';
import * as rooms from '#lib/db/rooms';
import { scopeOf } from '#lib/devices/deviceScope';

// POST /videoDevice/all/allDevices -> [Device] in scope; with ?limit / ?cursor -> {items, nextCursor}; 422
export const handler = http(async ({ body, query }) => {
  const scope = scopeOf(body);
  const inScope = await rooms.inScope(scope);
  const paged = query.limit !== undefined || query.cursor !== undefined;
  return {
    statusCode: 200,
    body: paged ? await devices.page(inScope, Number(query.limit ?? 100), query.cursor, `allDevices ${JSON.stringify(scope)}`) : await devices.inRooms(inScope),
  };
});
