import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as alarms from '#lib/alarms/repository/alarms';
import * as deliveries from '#lib/notify/repository/deliveries';
import { evaluationQueue } from '#lib/alarms/repository/evaluationQueue';
import * as watchers from '#lib/watchers/repository';
import { syncDevices } from '#lib/inventory/sync';
import { createChannel } from '#lib/notify/channels';
import { handler as evaluateNow } from '../../functions/alarms/evaluateNow';
import { apiEvent, lambdaContext } from '../support/events';
import { device, fixed, offlineWatcher, unique } from '../support/fleet';

/*
 * A webhook receiver that never answers keeps a delivery due in every run; the attempt's budget is
 * a third of what is left of the run, minus a margin: a fraction of a millisecond, which
 * AbortSignal.timeout refused by throwing, so POST /alarms/evaluate answered 500 before it
 * evaluated anything. Every call must answer (200, or 409 while another test file's run holds the
 * evaluator's lease), never 500, and the runs must still evaluate.
 */

let receiver: Server;
let hookUrl: string;
let hits = 0;

beforeAll(async () => {
  receiver = createServer((req) => {
    hits++;
    req.resume(); // reads the body, never answers
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  vi.stubEnv('ALLOW_LOCAL_WEBHOOKS', 'true');
});
afterAll(() => {
  vi.unstubAllEnvs();
  receiver.closeAllConnections();
  receiver.close();
});

type Invoke = (event: unknown, context: unknown) => Promise<{ statusCode: number; body: string }>;

/** POST /alarms/evaluate with about 6.5 s for the run: the first notification phase gets about 1.5 s of it. */
const evaluate = () => {
  const started = Date.now();
  const event = apiEvent({ httpMethod: 'POST', resource: '/alarms/evaluate', path: '/alarms/evaluate' });
  const context = { ...lambdaContext(), getRemainingTimeInMillis: () => started + 7_500 - Date.now() };
  return (evaluateNow as unknown as Invoke)(event, context);
};

/** A webhook delivery to the hanging receiver, due now. */
const dueDelivery = async (channelId: string) => {
  const id = unique('hang');
  await deliveries.createIfAbsent(
    { id, status: 'pending', target: { kind: 'channel', channelId }, digest: { type: 'test', id, at: new Date().toISOString(), alarms: [], total: 0, rooms: 0, scope: 'test' } },
    new Date().toISOString(),
  );
};

describe('POST /alarms/evaluate while a webhook receiver hangs', () => {
  it(
    'never answers 500 in 30 calls, and still evaluates',
    async () => {
      const region = unique('R');
      const fleet = Array.from({ length: 6 }, (_, i) => device(region, `${region}-${i}`, `Room ${i % 2}`, i % 2 === 0));
      await syncDevices(fixed(() => fleet));
      const watcherId = await watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`));
      await evaluationQueue.addWatcher(watcherId);
      const channel = await createChannel({ name: 'hangs', type: 'webhook', url: hookUrl }, { allowLocal: true });

      const statuses: number[] = [];
      for (let call = 0; call < 30; call++) {
        await dueDelivery(channel.id);
        const res = await evaluate();
        statuses.push(res.statusCode);
        if (res.statusCode === 200) expect(JSON.parse(res.body)).toMatchObject({ complete: expect.any(Boolean), raised: expect.any(Number) });
      }

      expect(statuses.filter((status) => status !== 200 && status !== 409)).toEqual([]);
      expect(statuses).toContain(200);
      // the hanging receiver was really tried, and the runs evaluated: the offline devices have their alarms
      expect(hits).toBeGreaterThan(0);
      const offline = fleet.filter((d) => !d.status.connected).map((d) => d.devicesn).sort();
      expect((await alarms.openOf(watcherId)).map((a) => a.devicesn).sort()).toEqual(offline);
    },
    240_000,
  );
});
