import http from '#generated/routes/silencesCreate';
import { createSilenceAndAnnounce } from '#lib/alarms/silenceEvents';
import { connectionsFromEnv } from '#lib/adapters/connections';
import { enableLivePush } from '#lib/live';

enableLivePush(connectionsFromEnv());

// POST /silences -> 201 the silence with id, createdBy (bearer token's user, else "api-key") and status; 400 naming the field;
// 404 matchers not pinning a region (and location) within the caller's scope
export const handler = http(async ({ body, principal }) => ({
  statusCode: 201,
  body: await createSilenceAndAnnounce(body, principal.username, principal.scope),
}));
