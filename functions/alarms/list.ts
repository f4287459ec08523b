import http from '#generated/routes/alarmsList';
import { alarms } from '#lib/db/alarms';
import { alarmFilter } from '#lib/alarms/query';

// GET /alarms -> [open alarm] newest first; with ?limit / ?cursor -> {items, nextCursor}; 422
export const handler = http(async ({ query }) => ({
  statusCode: 200,
  body: await alarms.list(alarmFilter(query), { limit: query.limit ? Number(query.limit) : undefined, cursor: query.cursor }),
}));
