import http from '#generated/routes/alarmsList';
import { listAlarms } from '#lib/alarms/query';

// GET /alarms -> [firing (or ?state=pending) alarm] newest first (within the caller's scope), each with silencedBy; with ?limit / ?cursor -> {items, nextCursor}; 422
export const handler = http(async ({ query, principal }) => ({ statusCode: 200, body: await listAlarms(query, principal.scope) }));
