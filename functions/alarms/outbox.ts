import http from '#generated/routes/alarmsOutbox';
import * as outbox from '#lib/notify/mail/repository';

// GET /alarms/outbox -> [mail] newest first; with ?limit / ?cursor -> {items, nextCursor}; 422
export const handler = http(async ({ query }) => ({
  statusCode: 200,
  body: await outbox.list(query.to, { limit: query.limit ? Number(query.limit) : undefined, cursor: query.cursor }),
}));
