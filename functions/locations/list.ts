import http from '#generated/routes/locationsList';
import { listProfiles } from '#lib/locations/service';

// GET /locations/profiles[?limit=&cursor=] -> one page {items, nextCursor} of the profiles (a scoped caller: those within its scope); 422
export const handler = http(async ({ query, principal }) => ({ statusCode: 200, body: await listProfiles(query, principal.scope) }));
