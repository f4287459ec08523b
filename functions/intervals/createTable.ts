import http from '#generated/routes/intervalsCreateTable';
import { ensureTheTable } from '#lib/store/ensure';

// POST /intervals/createTable -> 200 once the (single) table exists and is ACTIVE; 400 on error (spec)
export const handler = http(async () => ({
  statusCode: 200,
  body: await ensureTheTable(),
}));
