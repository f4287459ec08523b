import http from '#generated/routes/silencesList';
import { listSilences } from '#lib/alarms/silences';

// GET /silences[?all=true][&limit=&cursor=] -> active and future silences, soonest end first (all: also expired ones,
// always one page {items, nextCursor}); a scoped caller: those within its scope; 400; 422 a cursor not answered for the same query
export const handler = http(async ({ query, principal }) => ({ statusCode: 200, body: await listSilences(query, principal.scope) }));
