import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import { offlineWatcher } from '../support/fleet';
import { startInstance, stillFleetEnv, type Instance } from '../../scripts/local/instance';

/*
 * A maintenance window's whole opening over HTTP (issue 28 items 1 and 6): a private `npm start`
 * whose clock this test moves (tests/support/clock-shift.mjs) into the window, where alarms open
 * marked inMaintenance and nothing is posted, then past its end, where one digest tells what still
 * fires and the window's history holds its opening and closing once each (docs/adr/0433, 0452).
 */
const KEY = 'maintenance-close-e2e-api-key';
const MINUTE = 60_000;
const fleet = simulatedFleet({ seed: 42, devices: 40 });
const region = 'EMEA';
const offline = fleet.filter((d) => !d.status.connected && d.details.region === region).map((d) => d.devicesn).sort();

const clock = mkdtempSync(join(tmpdir(), 'clock-'));
const shiftFile = join(clock, 'shift');
const setShift = async (ms: number) => {
  writeFileSync(shiftFile, String(ms));
  await new Promise((done) => setTimeout(done, 200));
};

interface Posted {
  type: string;
  alarms: { devicesn: string }[];
}
type Event = { event: 'opened' | 'closed'; at: string; opening: { start: string; end: string } };
const posted: Posted[] = [];
let receiver: Server;
let instance: Instance;

const call = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
  const response = await fetch(`${instance.url}${path}`, {
    method,
    headers: { 'x-api-key': KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
};
const evaluate = async () => expect((await call('POST', '/alarms/evaluate')).status).toBe(200);
const raised = () => posted.filter((p) => p.type === 'alarms.raised');
const pad = (n: number) => String(n).padStart(2, '0');

/** The window opens on a whole minute ten minutes from now (real time), for 30 minutes. */
const opens = Math.floor((Date.now() + 10 * MINUTE) / MINUTE) * MINUTE;
let windowId: string;

beforeAll(async () => {
  writeFileSync(shiftFile, '0');
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      posted.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Posted);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  instance = await startInstance({
    workFolder: '.esbuild-e2e-maintenance',
    echo: process.env.E2E_SERVER_LOGS === '1',
    env: {
      ...stillFleetEnv,
      API_KEY: KEY,
      SEED_DEVICES: '40',
      SIM_ROOMS: '',
      CLOCK_SHIFT_FILE: shiftFile,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${resolve(import.meta.dirname, '../support/clock-shift.mjs')}`.trim(),
    },
  });
  const hook = await call<{ id: string }>('POST', '/channels', { name: 'maintenance hook', type: 'webhook', url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` });
  expect(hook.status).toBe(201);
  expect((await call('POST', '/watcher', offlineWatcher(region, 'maintenance-e2e@example.com', { channelIds: [hook.body.id] }))).status).toBe(200);
  const start = new Date(opens);
  const window = await call<{ id: string; status: string }>('POST', '/maintenance', {
    matchers: { region },
    schedule: { days: ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'], start: `${pad(start.getUTCHours())}:${pad(start.getUTCMinutes())}`, durationMinutes: 30, timeZone: 'UTC' },
    comment: 'weekly patching',
  });
  expect(window.body).toMatchObject({ status: 'scheduled' });
  windowId = window.body.id;
}, 400_000);

afterAll(async () => {
  await instance?.stop();
  await new Promise((done) => receiver?.close(done));
  rmSync(clock, { recursive: true, force: true });
});

describe('a maintenance window opening and closing (npm start, its clock moved)', () => {
  it('the fleet has offline devices in the region (the premise of this test)', () => {
    expect(offline.length).toBeGreaterThanOrEqual(2);
  });

  it('inside the window: the alarms open marked inMaintenance, nothing is posted, the opening is in its history', async () => {
    await setShift(opens + 5 * MINUTE - Date.now());
    await evaluate();
    await evaluate();
    const alarms = (await call<{ devicesn: string; inMaintenance?: string[] }[]>('GET', `/alarms?region=${region}`)).body;
    expect(alarms.map((a) => a.devicesn).sort()).toEqual(offline);
    expect(alarms.every((a) => a.inMaintenance?.[0] === windowId)).toBe(true);
    expect(raised()).toEqual([]);
    const history = (await call<{ items: Event[] }>('GET', `/maintenance/${windowId}/history`)).body.items;
    expect(history.map((e) => [e.event, e.at])).toEqual([['opened', new Date(opens).toISOString()]]);
  });

  it('after it closes: one digest tells what still fires, once, and its history holds the opening and the closing once each', async () => {
    await setShift(opens + 40 * MINUTE - Date.now());
    await evaluate();
    await evaluate();
    expect(raised()).toHaveLength(1);
    expect(raised()[0]!.alarms.map((a) => a.devicesn).sort()).toEqual(offline);
    const alarms = (await call<{ inMaintenance?: string[] }[]>('GET', `/alarms?region=${region}`)).body;
    expect(alarms.some((a) => a.inMaintenance)).toBe(false);
    const history = (await call<{ items: Event[] }>('GET', `/maintenance/${windowId}/history`)).body.items;
    expect(history.map((e) => [e.event, e.at])).toEqual([
      ['closed', new Date(opens + 30 * MINUTE).toISOString()],
      ['opened', new Date(opens).toISOString()],
    ]);
  });
});
