/**
 * One function's work at N devices in a process of its own, its memory sampled (bench/memory.ts
 * runs it): `sync` ensures the table, syncs the whole fleet (first sync: every device written),
 * then a storm (10% disconnect) compared against the whole stored inventory; `evaluator` creates
 * ten watchers and runs the scheduled run: the full pass over the inventory, then the queue the
 * syncs left (the storm's raises). The store is another process. Prints one JSON line.
 */
import { outboxMailer } from '../lib/adapters/mail';
import { runEvaluation } from '../lib/alarms/engine/run';
import { dynamo, tableName } from '../lib/store/client';
import { ensureTable } from '../lib/store/definition';
import * as watchers from '../lib/watchers/repository';
import { simulatedFleet } from '../lib/inventory/provider/simulated';
import { syncDevices } from '../lib/inventory/sync';
import type { ProviderDevice } from '../lib/devices/types';

const [role, sizeArgument] = process.argv.slice(2);
const size = Number(sizeArgument ?? 100_000);
const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

let heapPeak = 0;
let rssPeak = 0;
const sample = () => {
  const { heapUsed, rss } = process.memoryUsage();
  heapPeak = Math.max(heapPeak, heapUsed);
  rssPeak = Math.max(rssPeak, rss);
};
const sampler = setInterval(sample, 20);

const steps: Record<string, { ms: number; heapPeakMB: number; rssPeakMB: number }> = {};
const step = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
  heapPeak = 0;
  rssPeak = 0;
  const startedAt = performance.now();
  const value = await run();
  sample();
  steps[name] = { ms: Math.round(performance.now() - startedAt), heapPeakMB: mb(heapPeak), rssPeakMB: mb(rssPeak) };
  return value;
};
const fixed = (fleet: ProviderDevice[]) => ({ listDevices: async () => fleet, getDevice: async (sn: string) => fleet.find((d) => d.devicesn === sn) });

const main = async () => {
  (globalThis as { gc?: () => void }).gc?.();
  const baseline = process.memoryUsage();
  const outcome: Record<string, unknown> = {};
  if (role === 'sync') {
    await ensureTable(dynamo, tableName());
    const fleet = simulatedFleet({ seed: 1, devices: size, rooms: 1000 });
    outcome.first = await step('firstSync', () => syncDevices(fixed(fleet)));
    // the storm: 10% disconnect, and a sync that compares the whole stored inventory
    process.env.SYNC_FULL_SECONDS = '0';
    const storm = fleet.map((d, i) => (i % 10 === 0 ? { ...d, status: { ...d.status, connected: false } } : d));
    outcome.storm = await step('stormSync', () => syncDevices(fixed(storm)));
  } else if (role === 'evaluator') {
    await watchers.create({
      user: 'bench', dashboard: 'd', service: 's', type: 't', allDevices: true, severity: 2, sendEmail: false, emails: [],
      operations: { type: 'device', operatorType: 'AND', conditions: [{ element: 'status.connected', operator: '==', value: 'false' }] },
    });
    for (let i = 1; i < 10; i++) {
      await watchers.create({
        user: 'bench', dashboard: 'd', service: 's', type: 't', allDevices: true, severity: 2, sendEmail: false, emails: [],
        operations: { type: 'device', operatorType: 'AND', conditions: [{ element: 'devicemodel', operator: '==', value: `none-${i}` }] },
      });
    }
    // the scheduled function's run: 300 s timeout less its 10 s margin
    const run = await step('scheduledRun', () => runEvaluation({ mailer: outboxMailer(), mode: 'forced', budgetMs: 290_000 }));
    outcome.run = run.ran ? { raised: run.summary.raised, cleared: run.summary.cleared, complete: run.summary.complete } : run;
  } else throw new Error(`role must be sync or evaluator (got ${role})`);
  clearInterval(sampler);
  const usage = process.resourceUsage();
  console.log(
    JSON.stringify({
      role,
      devices: size,
      baseline: { heapMB: mb(baseline.heapUsed), rssMB: mb(baseline.rss) },
      steps,
      heapPeakMB: Math.max(...Object.values(steps).map((s) => s.heapPeakMB)),
      maxRssMB: Math.round(usage.maxRSS / 102.4) / 10,
      outcome,
    }),
  );
};

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
