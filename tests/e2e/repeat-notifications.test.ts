import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import { offlineWatcher } from '../support/fleet';
import { stillFleetEnv, type Instance } from '../../scripts/local/instance';
import { plainCallerOf } from '../support/api';
import { ownInstance } from '../support/instance';

/*
 * Repeat notifications (`repeatIntervalSeconds`) over HTTP: a private `npm start` whose clock
 * this test moves forward (tests/support/clock-shift.mjs), since the shortest interval is an
 * hour. A webhook receiver on loopback records what the service posts.
 */
const KEY = 'repeat-e2e-api-key';
const HOUR = 3600_000;
const fleet = simulatedFleet({ seed: 42, devices: 40 });
const region = 'EMEA';
const offline = fleet.filter((d) => !d.status.connected && d.details.region === region).map((d) => d.devicesn).sort();
const email = 'repeat-e2e@example.com';

const clock = mkdtempSync(join(tmpdir(), 'clock-'));
const shiftFile = join(clock, 'shift');
/** Moves the instance's clock; waits until no process can still hold the old value (read at most every 50 ms). */
const setShift = async (ms: number) => {
  writeFileSync(shiftFile, String(ms));
  await new Promise((done) => setTimeout(done, 200));
};

interface Posted {
  type: string;
  watcher: { id: string };
  alarms: { devicesn: string }[];
  totalAlarms: number;
}
const posted: Posted[] = [];
let receiver: Server;
let instance: Instance;

const call = plainCallerOf(() => instance.url, KEY);
const evaluate = async () => expect((await call('POST', '/alarms/evaluate')).status).toBe(200);
const repeats = () => posted.filter((p) => p.type === 'alarms.repeat');
const subjects = async () => (await call<{ subject: string }[]>('GET', `/alarms/outbox?to=${encodeURIComponent(email)}`)).body.map((m) => m.subject);

let watcherId: string;
let channelIds: string[];

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
  instance = await ownInstance('.esbuild-e2e-repeat', {
    ...stillFleetEnv,
    API_KEY: KEY,
    SEED_DEVICES: '40',
    SIM_ROOMS: '',
    CLOCK_SHIFT_FILE: shiftFile,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${resolve(import.meta.dirname, '../support/clock-shift.mjs')}`.trim(),
  });
  const hook = await call<{ id: string }>('POST', '/channels', {
    name: 'repeat hook',
    type: 'webhook',
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
  });
  expect(hook.status).toBe(201);
  channelIds = [hook.body.id];
  const made = await call<string>('POST', '/watcher', offlineWatcher(region, email, { channelIds, repeatIntervalSeconds: 3600 }));
  expect(made.status).toBe(200);
  watcherId = made.body;
}, 400_000);

afterAll(async () => {
  await instance?.stop();
  await new Promise((done) => receiver?.close(done));
  rmSync(clock, { recursive: true, force: true });
});

describe('repeat notifications (repeatIntervalSeconds)', () => {
  it('the fleet has offline devices in the region (the premise of this test)', () => {
    expect(offline.length).toBeGreaterThanOrEqual(2);
  });

  it('raises once, and repeats nothing while the alarms are younger than the interval', async () => {
    await evaluate();
    await evaluate();
    expect(posted.map((p) => p.type)).toEqual(['alarms.raised']);
    expect(posted[0]!.alarms.map((a) => a.devicesn).sort()).toEqual(offline);
    expect(await subjects()).toHaveLength(1);
  });

  it('an interval later, re-notifies every alarm still open, once, by webhook and by mail', async () => {
    await setShift(HOUR + 60_000);
    await evaluate();
    await evaluate();
    expect(repeats()).toHaveLength(1);
    expect(repeats()[0]).toMatchObject({ watcher: { id: watcherId }, totalAlarms: offline.length });
    expect(repeats()[0]!.alarms.map((a) => a.devicesn).sort()).toEqual(offline);
    const mails = await subjects();
    expect(mails).toHaveLength(2);
    expect(mails.filter((s) => s.includes('Still open'))).toHaveLength(1);
  });

  it('leaves acknowledged alarms out of the next repeat', async () => {
    const acked = offline[0]!;
    expect((await call('POST', `/alarms/${encodeURIComponent(`${watcherId}:${acked}`)}/ack`, { comment: 'on it' })).status).toBe(200);
    await setShift(2 * HOUR + 60_000);
    await evaluate();
    expect(repeats()).toHaveLength(2);
    expect(repeats()[1]!.alarms.map((a) => a.devicesn).sort()).toEqual(offline.slice(1));
  });

  it('keeps repeating after the interval is made longer (one digest per new interval)', async () => {
    const longer = offlineWatcher(region, email, { channelIds, repeatIntervalSeconds: 7200 });
    expect((await call('PUT', `/watcher/${watcherId}`, longer)).status).toBe(200);
    await setShift(4 * HOUR + 60_000);
    await evaluate();
    await evaluate();
    expect(repeats()).toHaveLength(3);
    expect(repeats()[2]!.alarms.map((a) => a.devicesn).sort()).toEqual(offline.slice(1));
  });

  it('stops repeating once the watcher is switched off', async () => {
    expect((await call('PUT', `/watcher/${watcherId}/status`, { active: false })).status).toBe(200);
    await setShift(7 * HOUR + 60_000);
    await evaluate();
    expect(repeats()).toHaveLength(3);
  });
});
