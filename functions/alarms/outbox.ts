import { http } from '#lib/http';
import { outbox } from '#lib/db/outbox';
import validate from '#schemas/generated/alarmsOutbox';

interface Query {
  to?: string;
  limit?: string;
  cursor?: string;
}

// GET /alarms/outbox -> [mail] newest first; with ?limit / ?cursor -> {items, nextCursor}; 422
export const handler = http<unknown, Record<string, string>, Query>({ validate, invalidStatus: 422 }, async ({ query }) => ({
  statusCode: 200,
  body: await outbox.list(query.to, { limit: query.limit ? Number(query.limit) : undefined, cursor: query.cursor }),
}));
