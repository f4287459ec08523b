import { describe, expect, it } from 'vitest';
import type { Device } from '#lib/devices/types';
import { instanceOn } from '../support/instance';
import { startVendorFakes } from '../../scripts/local/fakes/index';
import { callerOf } from '../support/api';
import { deviceWatcher, unique } from '../support/fleet';
import { fleetOf } from '../support/vendors';
import { freePort } from '../../scripts/local/ports';
import { LOCAL_STAGE } from '../../scripts/local/env';
import { evaluatorFunctionName } from '#lib/adapters/nudge';

/*
 * The hand-off of docs/adr/0580 under `npm start`: a refresh queues the device's change and nudges
 * the queue evaluator through serverless offline's Lambda port (LAMBDA_ENDPOINT), which runs
 * alarmsEvaluateQueued. No scheduled evaluator runs in this instance (EVALUATE_INTERVAL_SECONDS=0)
 * and its sync waits an hour: the alarm can only come from the nudge.
 */
const KEY = 'nudge-e2e-api-key';
const fleet = fleetOf(38, 12, 4);
const own = instanceOn(
  '.esbuild-e2e-nudge',
  async () => {
    const fakes = await startVendorFakes(() => fleet);
    // serverless offline's Lambda port, chosen here so that the test can call it too
    return { fakes, lambdaPort: await freePort(), close: () => fakes.close() };
  },
  ({ fakes, lambdaPort }) => ({
    API_KEY: KEY,
    ...fakes.env,
    LAMBDA_PORT: String(lambdaPort),
    SYNC_INTERVAL_SECONDS: '3600',
    EVALUATE_INTERVAL_SECONDS: '0',
    DEMO_WATCHER: '0',
    PASSWORD_SCRYPT_LOG_N: '14',
  }),
  700_000,
);
const call = callerOf(() => own.instance.url, KEY);

/** Reads until `done` holds or `timeoutMs` passed (a bound on waiting, not an assertion of speed). */
const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

type Alarm = { devicesn: string; watcherId: string; state: string };

describe('a refresh nudges the queue evaluator through serverless offline\'s Lambda port', () => {
  it('serverless offline serves the function the nudge invokes, by the name the nudge gives it', async () => {
    const name = evaluatorFunctionName({ SERVICE_NAME: 'device-monitoring', STAGE: LOCAL_STAGE });
    const answer = await fetch(`http://localhost:${own.needs.lambdaPort}/2015-03-31/functions/${name}/invocations`, {
      method: 'POST',
      headers: { 'x-amz-invocation-type': 'RequestResponse' },
      body: JSON.stringify({ from: 'e2e' }),
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toHaveProperty('ran');
  });

  it('a device that went offline at its vendor has its alarm raised after a refresh, without the scheduled evaluator', async () => {
    const all = { regionName: 'all', locationName: 'all', roomName: 'all' };
    const devices = (await call<Device[]>('POST', '/videoDevice/all/allDevices', all)).body;
    // Webex pushes nothing: the refresh alone tells us
    const target = devices.find((d) => d.vendor === 'webex' && d.deviceconnected)!;
    expect(target).toBeDefined();
    const created = await call<string>('POST', '/watcher', deviceWatcher(target.devicesn, `${unique('ops')}@example.com`, { sendEmail: false }));
    expect(created.status).toBe(200);
    const watcherId = created.body;
    const alarms = async () => (await call<Alarm[]>('GET', `/alarms?watcherId=${watcherId}`)).body;
    expect(await alarms()).toEqual([]);

    const changed = await fetch(`${own.needs.fakes.webex.url}/_fake/devices/${encodeURIComponent(target.devicesn)}`, { method: 'POST', body: JSON.stringify({ connected: false }) });
    expect(changed.status).toBe(200);
    const refreshed = await call<Device>('POST', `/videoDevice/refresh/${target.devicesn}`);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({ devicesn: target.devicesn, deviceconnected: false });

    const raised = await until(alarms, (list) => list.length > 0);
    expect(raised.map((alarm) => [alarm.devicesn, alarm.state])).toEqual([[target.devicesn, 'firing']]);
  });
});
