import http from '#generated/routes/maintenanceHistory';
import { windowHistory } from '#lib/maintenance/service';

// GET /maintenance/{id}/history[?limit=&cursor=] -> one page {items, nextCursor} of the window's openings and closings,
// newest first; 404 unknown or outside the caller's scope; 400 malformed id; 422 a cursor not answered for the same window
export const handler = http(async ({ path, query, principal }) => ({ statusCode: 200, body: await windowHistory(path.id, query, principal.scope) }));
