import http from '#generated/routes/silencesEnd';
import { endSilence } from '#lib/alarms/silencing';

// DELETE /silences/{id} -> 200 the silence, ended now and kept (status expired); 404 unknown; 400 malformed id
export const handler = http(async ({ path }) => ({ statusCode: 200, body: await endSilence(path.id) }));
