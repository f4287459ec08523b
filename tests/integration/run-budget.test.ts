import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { outboxMailer } from '#lib/adapters/mail';
import { runEvaluation } from '#lib/alarms/engine/run';
import { MIN_RUN_SECONDS } from '#lib/alarms/engine/pure/settings';
import * as alarms from '#lib/alarms/repository/alarms';
import { doc, tableName } from '#lib/store/client';
import { intervals } from '#lib/config/intervals/repository';
import * as watchers from '#lib/watchers/repository';
import { evaluationQueue } from '#lib/alarms/repository/evaluationQueue';
import { syncDevices } from '#lib/inventory/sync';
import { INTERVAL_FIELDS } from '#lib/config/intervals/types';
import { DeadlineExceeded, withDeadline } from '#lib/shared/deadline';
import { handler as evaluateNow } from '../../functions/alarms/evaluateNow';
import { apiEvent, lambdaContext } from '../support/events';
import { device, fixed, offlineWatcher, unique } from '../support/fleet';
import { slowStore } from '../support/slowStore';

// Issue 24 item 9: a run's budget holds under load. A store that answers every request late
// (each call may take requestTimeout x maxAttempts, about 9 s) made runs overrun their budget by
// many seconds: `inTime()` between writes bounds only what starts, and reads never looked at the
// clock. Elapsed times are asserted with a generous margin: correctness bounds, not benchmarks.
const LATE_MS = 1_000;
const MARGIN_MS = 2_000;

let cure: () => Promise<void> = async () => {};
afterEach(async () => {
  await cure();
  cure = async () => {};
});

const probe = () => doc.send(new GetCommand({ TableName: tableName(), Key: { PK: 'PROBE', SK: 'PROBE' } }));

/** A fleet with offline devices, an offline watcher over it, both queued for the engine. */
const fleetWithWork = async () => {
  const region = unique('R');
  const fleet = Array.from({ length: 24 }, (_, i) => device(region, `${region}-${i}`, `Room ${i % 6}`, i % 3 !== 0));
  await syncDevices(fixed(() => fleet));
  const watcherId = await watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`));
  await evaluationQueue.addWatcher(watcherId);
  return { watcherId, offline: fleet.filter((d) => !d.status.connected).map((d) => d.devicesn).sort() };
};

describe('the store client within a run', () => {
  it('refuses a request that would start after the run deadline, without reaching the store', async () => {
    cure = await slowStore(LATE_MS);
    const started = Date.now();
    await expect(withDeadline(Date.now() - 1, probe)).rejects.toBeInstanceOf(DeadlineExceeded);
    expect(Date.now() - started).toBeLessThan(LATE_MS);
  });

  it('aborts a request still in flight when the deadline passes', async () => {
    cure = await slowStore(3 * LATE_MS);
    const started = Date.now();
    await expect(withDeadline(Date.now() + 500, probe)).rejects.toBeInstanceOf(DeadlineExceeded);
    expect(Date.now() - started).toBeLessThan(500 + LATE_MS);
  });

  it('leaves requests outside a run alone', async () => {
    cure = await slowStore(LATE_MS);
    await expect(probe()).resolves.toMatchObject({ $metadata: { httpStatusCode: 200 } });
  });
});

describe('a run against a store that answers every request late', () => {
  it(
    'ends within its 10 s budget (intervalDeviceWatchersTimeout 1, raised to MIN_RUN_SECONDS), answers complete: false, and the next run finishes the work',
    async () => {
      await intervals.create({ ...Object.fromEntries(INTERVAL_FIELDS.map((f) => [f, 60])), intervalDeviceWatchersTimeout: 1 } as never);
      const { watcherId, offline } = await fleetWithWork();

      cure = await slowStore(LATE_MS);
      const started = Date.now();
      const outcome = await runEvaluation({ mailer: outboxMailer(), mode: 'forced' });
      const elapsed = Date.now() - started;
      expect(outcome).toMatchObject({ ran: true, summary: { complete: false } });
      expect(elapsed).toBeLessThan(MIN_RUN_SECONDS * 1000 + MARGIN_MS);

      // whatever the run was cut short in the middle of, the next one finishes it from the stored state
      await cure();
      cure = async () => {};
      let next = await runEvaluation({ mailer: outboxMailer(), mode: 'forced' });
      // a lease the slow run could not release in time lapses on its own
      for (let i = 0; !next.ran && i < 30; i++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        next = await runEvaluation({ mailer: outboxMailer(), mode: 'forced' });
      }
      expect(next).toMatchObject({ ran: true, summary: { complete: true } });
      expect((await alarms.openOf(watcherId)).map((a) => a.devicesn).sort()).toEqual(offline);
    },
    60_000,
  );
});

describe('POST /alarms/evaluate against a store that answers every request late', () => {
  it(
    "answers 200 with complete: false before API Gateway's 29 s, counted from when the gateway took the request",
    async () => {
      await fleetWithWork();
      cure = await slowStore(LATE_MS);
      // the request reached the gateway 18 s ago (a cold start, a queue): 9 s are left before its 27 s
      const started = Date.now();
      const event = apiEvent({ httpMethod: 'POST', resource: '/alarms/evaluate', path: '/alarms/evaluate' });
      event.requestContext = { ...event.requestContext, requestTimeEpoch: started - 18_000 };
      const context = { ...lambdaContext(), getRemainingTimeInMillis: () => started + 11_000 - Date.now() };
      const res = (await (evaluateNow as unknown as (e: unknown, c: unknown) => Promise<{ statusCode: number; body: string }>)(event, context));
      const elapsed = Date.now() - started;
      expect(res.statusCode).toBe(200);
      expect(JSON.parse(res.body)).toMatchObject({ complete: false });
      expect(elapsed).toBeLessThan(9_000 + MARGIN_MS / 2);
    },
    60_000,
  );
});
