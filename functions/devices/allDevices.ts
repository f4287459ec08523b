import { http } from '#lib/http';
import { devices } from '#lib/db/devices';
import { rooms } from '#lib/db/rooms';
import { scopeOf, type DeviceFilter } from '#lib/devices/filter';
import validate from '#schemas/generated/devicesAllDevices';

interface Page {
  limit?: string;
  cursor?: string;
}

// POST /videoDevice/all/allDevices -> [Device] in scope; with ?limit / ?cursor -> {items, nextCursor}; 422
export const handler = http<DeviceFilter, Record<string, string>, Page>({ validate, invalidStatus: 422 }, async ({ body, query }) => {
  const scope = scopeOf(body);
  const inScope = await rooms.inScope(scope);
  const paged = query.limit !== undefined || query.cursor !== undefined;
  return {
    statusCode: 200,
    body: paged ? await devices.page(inScope, Number(query.limit ?? 100), query.cursor, `allDevices ${JSON.stringify(scope)}`) : await devices.inRooms(inScope),
  };
});
