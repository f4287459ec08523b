import { http } from '#lib/http';
import { alarms } from '#lib/db/alarms';
import { alarmFilter, type AlarmQuery } from '#lib/alarms/query';
import validate from '#schemas/generated/alarmsList';

// GET /alarms -> [open alarm] newest first; with ?limit / ?cursor -> {items, nextCursor}; 422
export const handler = http<unknown, Record<string, string>, AlarmQuery>({ validate, invalidStatus: 422 }, async ({ query }) => ({
  statusCode: 200,
  body: await alarms.list(alarmFilter(query), { limit: query.limit ? Number(query.limit) : undefined, cursor: query.cursor }),
}));
