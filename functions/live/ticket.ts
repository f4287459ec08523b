import http from '#generated/routes/liveTicket';
import { issueTicket } from '#lib/live/session';

// POST /live/ticket [{"filter": {regionName, locationName, roomName}}] -> 201 {ticket, url, expiresAt}; 422
export const handler = http(async ({ body }) => ({
  statusCode: 201,
  body: await issueTicket(body?.filter),
}));
