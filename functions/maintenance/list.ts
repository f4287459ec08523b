import http from '#generated/routes/maintenanceList';
import { listWindows } from '#lib/maintenance/service';

// GET /maintenance[?limit=&cursor=] -> one page {items, nextCursor} of the kept windows, oldest first (a scoped caller:
// those within its scope); 400; 422 a cursor not answered for the same query
export const handler = http(async ({ query, principal }) => ({ statusCode: 200, body: await listWindows(query, principal.scope) }));
