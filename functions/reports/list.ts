import http from '#generated/routes/reportsList';
import { listSchedules } from '#lib/reports/service';

// GET /reports[?limit=&cursor=] -> one page {items, nextCursor}, oldest first (a scoped caller: those within its scope); 422
export const handler = http(async ({ query, principal }) => ({ statusCode: 200, body: await listSchedules(query, principal.scope) }));
