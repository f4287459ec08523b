import { HttpError } from '#lib/shared/errors';
import { dynamo, tableName } from '#lib/store/client';
import { ensureTable } from '#lib/store/definition';

/**
 * The "create table" endpoints of intervals, roles and services: ensure the one table (DESIGN D8)
 * and say whether it was created; a failure is the spec's 400. Roles and services live in the
 * same table, and the built-in roles need no seeding (lib/access/roles.ts).
 */
export const ensureTheTable = async (): Promise<string> => {
  const table = tableName();
  try {
    const { created } = await ensureTable(dynamo, table);
    return created ? `Table ${table} created` : `Table ${table} already exists`;
  } catch (error) {
    throw new HttpError(400, `Table ${table} could not be ensured: ${error instanceof Error ? error.name : 'unknown error'}`);
  }
};
