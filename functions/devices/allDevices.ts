import http from '#generated/routes/devicesAllDevices';
import { devices } from '#lib/db/devices';
import { roomsWithin } from '#lib/devices/access';
import { scopeOf } from '#lib/devices/deviceScope';
import { isUnscoped } from '#lib/shared/access';

// POST /videoDevice/all/allDevices -> [Device] in scope; with ?limit / ?cursor -> {items, nextCursor}; 422
export const handler = http(async ({ body, query, principal }) => {
  const scope = scopeOf(body);
  const inScope = await roomsWithin(scope, principal.scope);
  const paged = query.limit !== undefined || query.cursor !== undefined;
  // a cursor holds to the filter and, for a scoped caller, to its scope
  const identity = `allDevices ${JSON.stringify(scope)}${isUnscoped(principal.scope) ? '' : ` within ${JSON.stringify(principal.scope)}`}`;
  return {
    statusCode: 200,
    body: paged ? await devices.page(inScope, Number(query.limit ?? 100), query.cursor, identity) : await devices.inRooms(inScope),
  };
});
