import http from '#generated/routes/alarmsList';
import { listAlarms } from '#lib/alarms/query';

// GET /alarms -> [firing (or ?state=pending) alarm] newest first, each with silencedBy; with ?limit / ?cursor -> {items, nextCursor}; 422
export const handler = http(async ({ query }) => ({ statusCode: 200, body: await listAlarms(query) }));
