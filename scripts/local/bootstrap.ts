/**
 * What a fresh local store needs before the API serves it. Run by `npm start` and by the
 * end-to-end test setup, after process.env points the SDK at the store and names the table.
 * Later areas add their steps here (demo fleet, first admin).
 */
import { dynamo, tableName } from '../../lib/db/client';
import { ensureTable } from '../../lib/db/table';
import { adminUsername, ensureFirstAdmin } from '../../lib/auth/accounts';

export const bootstrap = async (log: (line: string) => void = () => {}): Promise<void> => {
  const { created } = await ensureTable(dynamo, tableName());
  log(`table ${tableName()} ${created ? 'created' : 'ready'}`);
  log(`first admin ${adminUsername()}: ${await ensureFirstAdmin()}`);
};
