/**
 * What a fresh local store needs before the API serves it. Run by `npm start` and by the
 * end-to-end test setup, after process.env points the SDK at the store and names the table.
 * Later areas add their steps here (demo fleet, first admin).
 */
import { dynamo, tableName } from '../../lib/db/client';
import { ensureTable } from '../../lib/db/table';
import { adminUsername, ensureFirstAdmin } from '../../lib/auth/signin';
import { providerFromEnv } from '../../lib/devices/provider';
import { syncDevices } from '../../lib/devices/sync';

export const bootstrap = async (log: (line: string) => void = () => {}): Promise<void> => {
  const { created } = await ensureTable(dynamo, tableName());
  log(`table ${tableName()} ${created ? 'created' : 'ready'}`);
  log(`first admin ${adminUsername()}: ${await ensureFirstAdmin()}`);
  // demo fleet (DEVICE_PROVIDER, default simulated: SEED_DEVICES devices, fixed seed)
  const synced = await syncDevices(providerFromEnv());
  log(`devices synced: ${synced.devices} devices (${synced.upserted} written, ${synced.removed} removed)`);
};
