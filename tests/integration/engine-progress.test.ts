import { describe, expect, it } from 'vitest';
import { outboxMailer } from '#lib/adapters/mail';
import { queuePass } from '#lib/alarms/engine/queuePass';
import { MIN_RUN_SECONDS, runBudgetMs } from '#lib/alarms/engine/pure/settings';
import * as alarms from '#lib/alarms/repository/alarms';
import { evaluationQueue } from '#lib/alarms/repository/evaluationQueue';
import * as watchers from '#lib/watchers/repository';
import { syncDevices } from '#lib/inventory/sync';
import { createWatcher } from '#lib/watchers/write';
import { dynamo } from '#lib/store/client';
import { SERIALS } from '#lib/devices/entities';
import { injectFault } from '../support/faults';
import { device, fixed, offlineWatcher, unique, watcherInput } from '../support/fleet';

// Issue 24 items 2 and 3: the engine makes progress whatever its budget, and a watcher created
// just before a crash is still evaluated.
const watcherEntriesOf = async (ids: ReadonlySet<string>) => (await evaluationQueue.list()).filter((e) => e.kind === 'watcher' && ids.has(e.watcherId));

describe('progress under a small budget', () => {
  it('removes each finished watcher at once and still evaluates queued devices in every run', async () => {
    const region = unique('R');
    const fleet = Array.from({ length: 40 }, (_, i) => device(region, `${region}-${i}`, `Room ${i % 8}`, true));
    await syncDevices(fixed(() => fleet));
    // many "all devices" watchers queued at once, as a storm of POST /watcher leaves them
    const ids = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const id = await watchers.create(watcherInput({ operations: { type: 'device', operatorType: 'AND', conditions: [{ element: 'details.region', operator: '==', value: region }, { element: 'status.connected', operator: '==', value: 'false' }] } }));
      await evaluationQueue.addWatcher(id);
      ids.add(id);
    }
    // and a device change queued behind them
    const email = `${unique('ops')}@example.com`;
    const offline = await watchers.create(offlineWatcher(region, email));
    await evaluationQueue.addWatcher(offline);
    ids.add(offline);
    fleet[0] = device(region, `${region}-0`, 'Room 0', false);
    await syncDevices(fixed(() => fleet));

    const before = (await watcherEntriesOf(ids)).length;
    // each watcher's read of the inventory takes 400 ms: 31 watchers never fit in one run's share
    const slow = slowInventoryReads(400);
    let first!: Awaited<ReturnType<typeof queuePass>>;
    let after = 0;
    try {
      first = await queuePass({ mailer: outboxMailer(), deadline: Date.now() + 6_000 });
      after = (await watcherEntriesOf(ids)).length;
    } finally {
      slow();
    }

    expect(first.complete).toBe(false);
    expect(after).toBeLessThan(before);
    // the device change was evaluated in this run although watchers are still queued
    expect((await evaluationQueue.list()).filter((e) => e.kind === 'device' && e.devicesn === `${region}-0`)).toEqual([]);

    // every later run removes more, until none is left
    let left = after;
    for (let run = 0; left > 0 && run < 40; run++) {
      await queuePass({ mailer: outboxMailer(), deadline: Date.now() + 3_000 });
      const now = (await watcherEntriesOf(ids)).length;
      expect(now).toBeLessThan(left);
      left = now;
    }
    expect(left).toBe(0);
    expect((await alarms.openOf(offline)).map((a) => a.devicesn)).toEqual([`${region}-0`]);
  });

  it('gives a run at least MIN_RUN_SECONDS, whatever intervalDeviceWatchersTimeout says', () => {
    expect(runBudgetMs({ intervalSeconds: 31_536_000, timeoutSeconds: 1 })).toBe(MIN_RUN_SECONDS * 1000);
    expect(runBudgetMs({ intervalSeconds: 60, timeoutSeconds: 50 })).toBe(50_000);
  });
});

describe('a watcher created just before a crash', () => {
  it('is queued before it is stored: a create that dies between its two writes leaves no unqueued watcher', async () => {
    const region = unique('R');
    const email = `${unique('ops')}@example.com`;
    // the create's second write never lands (the process died there)
    const crash = injectFault('timeout', 'PutCommand', 1, 1);
    await createWatcher(offlineWatcher(region, email)).catch(() => undefined);
    crash();
    const queued = new Set((await evaluationQueue.list()).flatMap((e) => (e.kind === 'watcher' ? [e.watcherId] : [])));
    const unqueued = (await watchers.list()).filter((w) => w.emails.includes(email) && !queued.has(w.id));
    expect(unqueued).toEqual([]);

    // and a create that lands is queued
    const landed = await createWatcher(offlineWatcher(region, `${unique('ops')}@example.com`));
    expect((await evaluationQueue.list()).some((e) => e.kind === 'watcher' && e.watcherId === landed)).toBe(true);
  });
});

/** Delays every read of the inventory index (GSI2 `SERIALS#…`) by `ms`: a fleet that takes long to read. */
const slowInventoryReads = (ms: number): (() => void) => {
  const name = `slow-inventory-${Math.random()}`;
  dynamo.middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as { IndexName?: string; ExpressionAttributeValues?: Record<string, unknown> };
      if (input.IndexName === 'GSI2' && JSON.stringify(input.ExpressionAttributeValues ?? {}).includes(`${SERIALS}#`)) await new Promise((resolve) => setTimeout(resolve, ms));
      return next(args);
    },
    { step: 'initialize', name },
  );
  return () => dynamo.middlewareStack.remove(name);
};
