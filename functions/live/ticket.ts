import { http } from '#lib/http';
import { issueTicket } from '#lib/live/session';
import type { LiveFilter } from '#lib/live/types';
import validate from '#schemas/generated/liveTicket';

// POST /live/ticket [{"filter": {regionName, locationName, roomName}}] -> 201 {ticket, url, expiresAt}; 422
export const handler = http<{ filter?: LiveFilter } | undefined>({ validate, invalidStatus: 422 }, async ({ body }) => ({
  statusCode: 201,
  body: await issueTicket(body?.filter),
}));
