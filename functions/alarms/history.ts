import http from '#generated/routes/alarmsHistory';
import { queryHistory } from '#lib/alarms/history';

// GET /alarms/history?region&location&room&devicesn&watcherId&from&to&limit&cursor -> {items, nextCursor} newest first, within the caller's scope; 422
export const handler = http(async ({ query, principal }) => ({ statusCode: 200, body: await queryHistory(query, principal.scope) }));
