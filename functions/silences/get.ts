import http from '#generated/routes/silencesGet';
import { getSilence } from '#lib/alarms/silences';

// GET /silences/{id} -> 200 the silence; 404 unknown or outside the caller's scope; 400 malformed id
export const handler = http(async ({ path, principal }) => ({ statusCode: 200, body: await getSilence(path.id, principal.scope) }));
