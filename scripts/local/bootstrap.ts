/**
 * What a fresh local store needs before the API serves it. Run by `npm start` and by the
 * end-to-end test setup, after process.env points the SDK at the store and names the table.
 * Later areas add their steps here (demo fleet, first admin).
 */
import { dynamo, tableName } from '../../lib/store/client';
import { ensureTable } from '../../lib/store/definition';
import { secret } from '../../lib/adapters/secrets';
import { adminUsername, ensureFirstAdmin } from '../../lib/access/signin';
import { providersFromEnv } from '../../lib/inventory/provider/index';
import { syncProviders } from '../../lib/inventory/providers';
import * as watchers from '../../lib/watchers/repository';

/**
 * The demo's alarm rule, created once on a store without any watcher (DEMO_WATCHER=0: never):
 * with the simulated fleet's churn it raises and clears alarms every minute, so alarm history,
 * device history and availability have something to show within minutes.
 */
const ensureDemoWatcher = async (): Promise<string> => {
  if (process.env.DEMO_WATCHER === '0') return 'off (DEMO_WATCHER=0)';
  if ((await watchers.list()).length > 0) return 'not needed (watchers exist)';
  const id = await watchers.create({
    user: 'demo',
    dashboard: 'demo',
    service: 'video',
    type: 'offline',
    allDevices: true,
    severity: 3,
    operations: { type: 'device', operatorType: 'AND', conditions: [{ element: 'status.connected', operator: '==', value: 'false' }] },
    description: 'Demo: video device offline',
    sendEmail: true,
    emails: ['demo-ops@example.com'],
  });
  return `created ${id}`;
};

export const bootstrap = async (log: (line: string) => void = () => {}): Promise<void> => {
  const { created } = await ensureTable(dynamo, tableName());
  log(`table ${tableName()} ${created ? 'created' : 'ready'}`);
  log(`first admin ${adminUsername()}: ${await ensureFirstAdmin(secret)}`);
  // demo fleet (DEVICE_PROVIDERS; npm start: Webex and Zoom fakes serving SEED_DEVICES simulated devices)
  const synced = await syncProviders(providersFromEnv());
  if (!synced) log('devices: no device provider configured (DEVICE_PROVIDERS); nothing synced');
  else {
    const vendors = synced.providers.map((p) => `${p.name} ${p.ok ? p.devices : `failed: ${p.error}`}`).join(', ');
    log(`devices synced: ${synced.devices} devices (${synced.upserted} written, ${synced.removed} removed; ${vendors})`);
  }
  log(`demo watcher: ${await ensureDemoWatcher()}`);
};
