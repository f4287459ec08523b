import http from '#generated/routes/devicesHistory';
import { deviceHistory } from '#lib/devices/history';

// GET /videoDevice/{devicesn}/history?from&to&limit&cursor -> {items: [{at, connected, inCallStatus}], nextCursor}; 404 (also outside the caller's scope); 422
export const handler = http(async ({ path, query, principal }) => ({ statusCode: 200, body: await deviceHistory(path.devicesn, query, principal.scope) }));
