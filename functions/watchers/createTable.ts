import http from '#generated/routes/watchersCreateTable';
import { dynamo, tableName } from '#lib/store/client';
import { ensureTable } from '#lib/store/definition';

// POST /watcher/createTable -> 200 the integer 1 once the (single) table is ACTIVE (DESIGN D8); 500 on failure
export const handler = http(async () => {
  await ensureTable(dynamo, tableName());
  return { statusCode: 200, body: 1 };
});
