import { HttpError } from '#lib/errors';
import { dynamo, tableName } from '#lib/db/client';
import { ensureTable } from '#lib/db/table';

/**
 * The account group's "create table" endpoints ensure the one table (DESIGN D8); roles and
 * services live in it, and the built-in roles need no seeding (lib/auth/roles.ts).
 */
export const ensureAccountsTable = async (): Promise<string> => {
  const table = tableName();
  try {
    const { created } = await ensureTable(dynamo, table);
    return created ? `Table ${table} created` : `Table ${table} already exists`;
  } catch (error) {
    throw new HttpError(400, `Table ${table} could not be ensured: ${error instanceof Error ? error.name : 'unknown error'}`);
  }
};
