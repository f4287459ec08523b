import http from '#generated/routes/silencesList';
import { listSilences } from '#lib/alarms/silencing';

// GET /silences[?all=true] -> active and future silences (all: also expired ones), soonest end first; 400
export const handler = http(async ({ query }) => ({ statusCode: 200, body: await listSilences(query.all === 'true') }));
