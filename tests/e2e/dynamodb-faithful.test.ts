import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device } from '#lib/devices/types';
import type { StatusCounts } from '#lib/live/types';
import { LISTED } from '#lib/notify/types';
import { startLocalStore, type LocalStore } from '../../scripts/local/dynamo';
import { stillFleetEnv, type Instance } from '../../scripts/local/instance';
import { ownInstance } from '../support/instance';
import { callerOf } from '../support/api';
import { startFaithfulStore, type FaithfulStore } from '../support/faithful';

/*
 * Issue 23's check over HTTP: a private `npm start` whose store is DynamoDB-faithful
 * (DYNAMODB_ENDPOINT = an in-memory DynamoDB Local behind tests/support/faithful.ts, index reads 1.5 s late, 3% of
 * requests throttled, 2% of transactions conflicting). A run still mails exactly one digest per watcher naming every device it
 * raised, room statuses agree with the open alarms after it, and no run fails.
 */
const KEY = 'faithful-e2e-api-key-0123456789';
let store: LocalStore;
let faithful: FaithfulStore;
let instance: Instance;
const call = callerOf(() => instance.url, KEY);
const all = { regionName: 'all', locationName: 'all', roomName: 'all' };

interface EvaluateAnswer {
  raised: number;
  cleared: number;
  mailed: number;
  complete: boolean;
}
interface Mail {
  subject: string;
  text: string;
}

beforeAll(async () => {
  store = await startLocalStore();
  faithful = await startFaithfulStore(store.endpoint, { lagMs: 1500, throttleRate: 0.03, conflictRate: 0.02 });
  instance = await ownInstance('.esbuild-e2e-faithful', { ...stillFleetEnv, API_KEY: KEY, DYNAMODB_ENDPOINT: faithful.endpoint, SEED_DEVICES: '80', PASSWORD_SCRYPT_LOG_N: '14' });
}, 700_000);

afterAll(async () => {
  await instance?.stop();
  await faithful?.close();
  await store?.close();
});

describe('npm start against a store with DynamoDB\'s index lag and throttling', () => {
  it('mails one digest per watcher and run naming every device it raised, and rooms agree with the open alarms', async () => {
    const devices = (await call<Device[]>('POST', '/videoDevice/all/allDevices', all)).body;
    expect(devices.length).toBe(80);
    // the offline devices of one region: few enough for one digest to list them all
    const region = devices[0]!.details.region;
    const offline = devices.filter((d) => d.details.region === region && !d.status.connected);
    expect(offline.length).toBeGreaterThan(0);
    const email = 'faithful-ops@example.com';
    const watcher = await call<string>('POST', '/watcher', {
      user: 'ops', dashboard: 'ops', service: 'video', type: 'offline', allDevices: true, severity: 2, sendEmail: true, emails: [email],
      operations: { type: 'device', operatorType: 'AND', conditions: [{ element: 'status.connected', operator: '==', value: 'false' }, { element: 'details.region', operator: '==', value: region }] },
    });
    expect(watcher.status).toBe(200);

    const run = await call<EvaluateAnswer>('POST', '/alarms/evaluate');
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ raised: offline.length, mailed: 1, complete: true });
    const again = await call<EvaluateAnswer>('POST', '/alarms/evaluate');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ raised: 0, mailed: 0 });

    // the outbox is listed through an index: a reader sees its mails once the lag has passed
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const mails = (await call<Mail[]>('GET', `/alarms/outbox?to=${encodeURIComponent(email)}`)).body;
    expect(mails).toHaveLength(1);
    // a digest lists LISTED alarms and counts the rest: every one when they fit
    const named = offline.filter((device) => mails[0]!.text.includes(device.devicesn));
    expect(named.length).toBe(Math.min(offline.length, LISTED));
    expect(mails[0]!.subject).toContain(`${offline.length} device`);

    // room statuses (from the summaries) agree with the open alarms
    const rooms = new Set(offline.map((d) => `${d.details.location}/${d.details.room}`));
    const counts = (await call<StatusCounts>('POST', '/videoDevice/room/roomStatusCount', { regionName: region, locationName: 'all', roomName: 'all' })).body;
    expect(counts.MajorStatus).toBe(rooms.size);
    expect(faithful.stats.replicated).toBeGreaterThan(0);
  });
});
