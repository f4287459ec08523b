import http from '#generated/routes/liveTicket';
import { issueTicket } from '#lib/live';

// POST /live/ticket [{"filter": {regionName, locationName, roomName}}] -> 201 {ticket, url, expiresAt}, the connection it opens within the caller's scope; 422
export const handler = http(async ({ body, principal }) => ({
  statusCode: 201,
  body: await issueTicket(body?.filter, undefined, principal.scope),
}));
