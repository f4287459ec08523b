import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../client/index';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import { offlineWatcher } from '../support/fleet';
import { startInstance, stillFleetEnv, type Instance } from '../../scripts/local/instance';

/*
 * A maintenance window's whole opening over HTTP (issue 28 items 1 and 6): a private `npm start`
 * whose clock this test moves (tests/support/clock-shift.mjs) into the window, where alarms open
 * marked inMaintenance and nothing is mailed, then past its end, where one digest tells what still
 * fires and the window's history holds its opening and closing once each (docs/guide/rules/maintenance.md).
 * Calls go through the typed client (client/index.ts).
 */
const KEY = 'maintenance-close-e2e-api-key';
const MINUTE = 60_000;
const region = 'EMEA';
const email = 'maintenance-e2e@example.com';
const offline = simulatedFleet({ seed: 42, devices: 40 })
  .filter((d) => !d.status.connected && d.details.region === region)
  .map((d) => d.devicesn)
  .sort();

/** The instance's clock runs ahead of the real one by what this file holds (ms). */
const shift = join(mkdtempSync(join(tmpdir(), 'maintenance-clock-')), 'ms');
/** Sets the instance's clock to `at` (real epoch ms); the preload rereads the file every 50 ms. */
const clockAt = async (at: number) => {
  writeFileSync(shift, String(at - Date.now()));
  await new Promise((done) => setTimeout(done, 200));
};

let instance: Instance;
const api = () => apiClient({ baseUrl: instance.url, apiKey: KEY });
const evaluate = async () => expect((await api().POST('/alarms/evaluate')).response.status).toBe(200);
const mails = async () => {
  const { data } = await api().GET('/alarms/outbox', { params: { query: { to: email } } });
  return Array.isArray(data) ? data : (data?.items ?? []);
};
const historyOf = async (id: string) => ((await api().GET('/maintenance/{id}/history', { params: { path: { id } } })).data?.items ?? []).map((e) => [e.event, e.at]);
const openAlarms = async () => {
  const { data } = await api().GET('/alarms', { params: { query: { region } } });
  return Array.isArray(data) ? data : (data?.items ?? []);
};
const iso = (ms: number) => new Date(ms).toISOString();
const hhmm = (ms: number) => iso(ms).slice(11, 16);

/** The window opens on a whole minute ten minutes from now (real time), for 30 minutes, in UTC. */
const opens = Math.floor((Date.now() + 10 * MINUTE) / MINUTE) * MINUTE;
let windowId: string;

beforeAll(async () => {
  writeFileSync(shift, '0');
  const preload = `--import ${resolve(import.meta.dirname, '../support/clock-shift.mjs')}`;
  instance = await startInstance({
    workFolder: '.esbuild-e2e-maintenance',
    echo: process.env.E2E_SERVER_LOGS === '1',
    env: { ...stillFleetEnv, API_KEY: KEY, SEED_DEVICES: '40', SIM_ROOMS: '', CLOCK_SHIFT_FILE: shift, NODE_OPTIONS: [process.env.NODE_OPTIONS, preload].filter(Boolean).join(' ') },
  });
  expect((await api().POST('/watcher', { body: offlineWatcher(region, email) })).response.status).toBe(200);
  const { data } = await api().POST('/maintenance', {
    body: {
      matchers: { region },
      schedule: { days: ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'], start: hhmm(opens), durationMinutes: 30, timeZone: 'UTC' },
      comment: 'weekly patching',
    },
  });
  expect(data).toMatchObject({ status: 'scheduled' });
  windowId = data!.id;
}, 400_000);

afterAll(async () => {
  await instance?.stop();
  rmSync(resolve(shift, '..'), { recursive: true, force: true });
});

describe('a maintenance window opening and closing (npm start, its clock moved)', () => {
  it('the fleet has offline devices in the region (the premise of this test)', () => {
    expect(offline.length).toBeGreaterThanOrEqual(2);
  });

  it('inside the window: the alarms open marked inMaintenance, nothing is mailed, the opening is in its history', async () => {
    await clockAt(opens + 5 * MINUTE);
    await evaluate();
    await evaluate();
    const alarms = await openAlarms();
    expect(alarms.map((a) => a.devicesn).sort()).toEqual(offline);
    expect(alarms.every((a) => a.inMaintenance?.[0] === windowId)).toBe(true);
    expect(await mails()).toEqual([]);
    expect(await historyOf(windowId)).toEqual([['opened', iso(opens)]]);
  });

  it('after it closes: one digest tells what still fires, once, and its history holds the opening and the closing once each', async () => {
    await clockAt(opens + 40 * MINUTE);
    await evaluate();
    await evaluate();
    const sent = await mails();
    expect(sent).toHaveLength(1);
    for (const devicesn of offline) expect(sent[0]!.text).toContain(devicesn);
    expect((await openAlarms()).some((a) => a.inMaintenance)).toBe(false);
    expect(await historyOf(windowId)).toEqual([
      ['closed', iso(opens + 30 * MINUTE)],
      ['opened', iso(opens)],
    ]);
  });
});
