import http from '#generated/routes/devicesHistory';
import { deviceHistory } from '#lib/devices/connectivity';

// GET /videoDevice/{devicesn}/history?from&to&limit&cursor -> {items: [{at, connected, inCallStatus}], nextCursor}; 404; 422
export const handler = http(async ({ path, query }) => ({ statusCode: 200, body: await deviceHistory(path.devicesn, query) }));
