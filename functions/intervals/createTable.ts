import http from '#generated/routes/intervalsCreateTable';
import { HttpError } from '#lib/errors';
import { dynamo, tableName } from '#lib/db/client';
import { ensureTable } from '#lib/db/table';

// POST /intervals/createTable -> 200 once the (single) table exists and is ACTIVE; 400 on error (spec)
export const handler = http(async () => {
  const table = tableName();
  try {
    const { created } = await ensureTable(dynamo, table);
    return { statusCode: 200, body: created ? `Table ${table} created` : `Table ${table} already exists` };
  } catch (error) {
    throw new HttpError(400, `Table ${table} could not be ensured: ${error instanceof Error ? error.name : 'unknown error'}`);
  }
});
