import http from '#generated/routes/silencesEnd';
import { endSilenceAndAnnounce } from '#lib/alarms/silenceEvents';
import { connectionsFromEnv } from '#lib/adapters/connections';
import { enableLivePush } from '#lib/live';

enableLivePush(connectionsFromEnv());

// DELETE /silences/{id} -> 200 the silence, ended now and kept (status expired); 404 unknown or outside the caller's scope; 400 malformed id
export const handler = http(async ({ path, principal }) => ({ statusCode: 200, body: await endSilenceAndAnnounce(path.id, principal.scope) }));
