import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ProviderDevice } from '#lib/devices/types';
import { evaluationQueue } from '#lib/alarms/repository/evaluationQueue';
import { withLease } from '#lib/alarms/engine/lease';
import * as watchers from '#lib/watchers/repository';
import { syncDevices } from '#lib/inventory/sync';
import { logger } from '#lib/shared/log';
import { evaluatorFunctionName } from '#lib/adapters/nudge';
import { apiEvent, lambdaContext } from '../support/events';
import { deviceWatcher, device, fixed, unique } from '../support/fleet';
import { firing, run } from '../support/engine';

/*
 * The hand-off of docs/adr/0580: the refresh queues the change and nudges the queue evaluator
 * (an asynchronous Lambda invocation) instead of running the engine itself. The Lambda API here
 * is a loopback server that does what serverless offline's Lambda port does with an `Event`
 * invocation: answer 202 at once, then run the function (functions/alarms/evaluateQueued.ts) in
 * this process. No scheduled evaluator runs in this file: an alarm raised is the nudge's doing.
 */
const TOKEN = 'nudge-provider-token';
let fleet: ProviderDevice[] = [];
type Invocation = { name: string; type: string | undefined; payload: unknown; run: Promise<unknown> };
const invocations: Invocation[] = [];
const servers: Server[] = [];

const listen = async (server: Server): Promise<string> => {
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

type Handler = (event: unknown, context: ReturnType<typeof lambdaContext>) => Promise<unknown>;
/** The evaluator's context: its timeout (300 s, schemas/alarms.ts) from `startedAt`. */
const functionContext = (startedAt: number) => ({ ...lambdaContext(), getRemainingTimeInMillis: () => 300_000 - (Date.now() - startedAt) });
let refresh: Handler;
let evaluateQueued: Handler;

beforeAll(async () => {
  // the device's vendor (DEVICE_PROVIDER=http): one device by serial, as the fleet holds it now
  const vendor = await listen(
    createServer((req, res) => {
      const sn = decodeURIComponent((req.url ?? '').replace('/v1/devices/', ''));
      const found = req.headers.authorization === `Bearer ${TOKEN}` ? fleet.find((d) => d.devicesn === sn) : undefined;
      res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(found ?? { message: 'unknown' }));
    }),
  );
  // Lambda's Invoke API: POST /2015-03-31/functions/<name>/invocations
  const lambda = await listen(
    createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const name = decodeURIComponent(/^\/2015-03-31\/functions\/([^/]+)\/invocations/.exec(req.url ?? '')?.[1] ?? '');
        const payload: unknown = JSON.parse(Buffer.concat(chunks).toString() || 'null');
        res.writeHead(202, { 'content-type': 'application/json' });
        res.end();
        const run = evaluateQueued(payload, functionContext(Date.now()));
        run.catch(() => undefined); // its test awaits it and sees the failure
        invocations.push({ name, type: req.headers['x-amz-invocation-type'] as string | undefined, payload, run });
      });
    }),
  );
  Object.assign(process.env, { DEVICE_PROVIDER: 'http', DEVICE_PROVIDER_URL: `${vendor}/v1/`, DEVICE_PROVIDER_TOKEN: TOKEN, LAMBDA_ENDPOINT: lambda });
  ({ handler: refresh } = (await import('../../functions/devices/refresh')) as unknown as { handler: Handler });
  ({ handler: evaluateQueued } = (await import('../../functions/alarms/evaluateQueued')) as unknown as { handler: Handler });
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
});

/** A device of a new region, online and synced, under a watcher raising Major while it is offline (nothing pending). */
const watchedDevice = async () => {
  const region = unique('R');
  const sn = `${region}-1`;
  fleet = [device(region, sn, 'Room 1', true)];
  await syncDevices(fixed(() => fleet));
  const watcherId = await watchers.create(deviceWatcher(sn, `${unique('ops')}@example.com`, { sendEmail: false }));
  await run();
  invocations.length = 0;
  return { region, sn, watcherId };
};

const refreshOf = async (devicesn: string) => {
  const answer = (await refresh(apiEvent({ resource: '/videoDevice/refresh/{devicesn}', path: `/videoDevice/refresh/${devicesn}`, pathParameters: { devicesn } }), lambdaContext())) as {
    statusCode: number;
    body: string;
  };
  return { status: answer.statusCode, body: JSON.parse(answer.body) as { devicesn: string; deviceconnected: boolean } };
};

const queuedFor = async (devicesn: string) => (await evaluationQueue.list()).filter((entry) => entry.kind === 'device' && entry.devicesn === devicesn);

describe('the refresh nudges the queue evaluator', () => {
  it('a refresh of a device that went offline raises its alarm in the nudged run, with no scheduled run', async () => {
    const { region, sn, watcherId } = await watchedDevice();
    fleet = [device(region, sn, 'Room 1', false)];

    const answered = await refreshOf(sn);
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ devicesn: sn, deviceconnected: false });

    expect(invocations.map(({ name, type, payload }) => ({ name, type, payload }))).toEqual([{ name: evaluatorFunctionName(), type: 'Event', payload: { from: 'refresh' } }]);
    expect(await invocations[0]!.run).toMatchObject({ ran: true, summary: { raised: 1, complete: true } });
    expect((await firing(watcherId)).map((alarm) => alarm.devicesn)).toEqual([sn]);
    expect(await queuedFor(sn)).toEqual([]);
  });

  it('a nudge that finds the evaluator busy waits for the lease, then runs the queue', async () => {
    const { region, sn, watcherId } = await watchedDevice();
    fleet = [device(region, sn, 'Room 1', false)];
    let release!: () => void;
    const holding = withLease(() => new Promise<void>((done) => (release = done)));
    await vi.waitFor(() => expect(release).toBeDefined());

    expect((await refreshOf(sn)).status).toBe(200);
    expect(invocations).toHaveLength(1);
    // the run holding the lease ends while the nudged one waits for it
    setTimeout(() => release(), 1_000);
    await holding;
    expect(await invocations[0]!.run).toMatchObject({ ran: true, summary: { raised: 1 } });
    expect((await firing(watcherId)).map((alarm) => alarm.devicesn)).toEqual([sn]);
  });

  it('a failed nudge (the Lambda API down) is logged, the refresh still answers 200, and the change stays queued for the scheduled evaluator', async () => {
    const { region, sn, watcherId } = await watchedDevice();
    fleet = [device(region, sn, 'Room 1', false)];
    const down = createServer();
    const address = await listen(down);
    await new Promise((done) => down.close(done));
    const endpoint = process.env.LAMBDA_ENDPOINT;
    process.env.LAMBDA_ENDPOINT = address;
    const warn = vi.spyOn(logger, 'warn');
    try {
      const answered = await refreshOf(sn);
      expect(answered.status).toBe(200);
      expect(answered.body).toMatchObject({ devicesn: sn, deviceconnected: false });
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/evaluator not nudged/), expect.objectContaining({ from: 'refresh', function: evaluatorFunctionName() }));
    } finally {
      process.env.LAMBDA_ENDPOINT = endpoint;
      warn.mockRestore();
    }
    expect(invocations).toEqual([]);
    expect(await firing(watcherId)).toEqual([]);
    expect(await queuedFor(sn)).not.toEqual([]);

    // the floor: the next evaluator run takes the queued change
    await run();
    expect((await firing(watcherId)).map((alarm) => alarm.devicesn)).toEqual([sn]);
  });
});
