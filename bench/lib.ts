import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { startLocalStore } from '../scripts/local/dynamo';

/** 1/5/15-minute load averages when the benchmark began (rounded) */
const loadAtStart = loadavg().map((v) => Number(v.toFixed(2)));

export const root = resolve(__dirname, '..');
export const resultsDir = join(root, 'bench', 'results');

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/**
 * Writes `bench/results/<name>.json` and `<name>.md`, stamped with the machine, the time and the
 * load average (1/5/15 min) when the benchmark began and when it ended: a figure from a busy
 * machine says so.
 */
export const writeResult = (name: string, data: object, markdown: string, measured?: { measuredAt: string; node: string; cpus: number; loadAverage: { atStart: number[]; atEnd: number[] } }) => {
  mkdirSync(resultsDir, { recursive: true });
  const loadAverage = measured?.loadAverage ?? { atStart: loadAtStart, atEnd: loadavg().map((v) => Number(v.toFixed(2))) };
  // `measured`: figures re-rendered from an earlier run keep that run's stamp
  const stamp = measured ?? { measuredAt: new Date().toISOString(), node: process.version, cpus: cpus().length, loadAverage };
  writeFileSync(join(resultsDir, `${name}.json`), `${JSON.stringify({ ...stamp, ...data }, null, 2)}\n`);
  const load = `load average ${loadAverage.atStart.join(' / ')} at the start, ${loadAverage.atEnd.join(' / ')} at the end`;
  writeFileSync(join(resultsDir, `${name}.md`), `${markdown}\n\n_${stamp.measuredAt}, Node ${stamp.node}, ${stamp.cpus} cores, ${load}_\n`);
};

/** `writeResult`, then the markdown on stdout. */
export const reportResult = (name: string, data: object, markdown: string) => {
  writeResult(name, data, markdown);
  console.log(markdown);
};

/**
 * Runs `bench` when `entry` is the file run (`tsx bench/<name>.ts`): a failure is printed and
 * exits 1; `exitWhenDone` exits 0 at the end (the SDK's keep-alive sockets would hold the process
 * open).
 */
export const runWhenMain = (entry: NodeModule, bench: () => Promise<unknown>, exitWhenDone = true) => {
  if (require.main !== entry) return;
  bench().then(
    () => {
      if (exitWhenDone) process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
};

/**
 * The store and fleet modules the engine benches share, imported (in this order) only once the
 * environment points at the bench's store: they read it when they load.
 */
export const fleetModules = async () => ({
  dynamo: (await import('../lib/store/client')).dynamo,
  ensureTable: (await import('../lib/store/definition')).ensureTable,
  devices: (await import('../lib/devices/repository/devices')).devices,
  recountRooms: (await import('../lib/rollups/recount')).recountRooms,
  simulatedFleet: (await import('../lib/inventory/provider/simulated')).simulatedFleet,
  rooms: await import('../lib/rollups/repository/rooms'),
  onStored: (await import('../lib/alarms/repository/changes')).onStored,
});

/**
 * The embedded store (DynamoDB Local, in memory) for the engine benches: a JVM of its own, as
 * DynamoDB is a service of its own, so the bench's engine and the store share neither a thread
 * nor a heap. Its heap is sized for the 100,000-device runs; it never outlives the bench
 * (scripts/local/dynamo.ts).
 */
export const storeProcess = (): Promise<{ endpoint: string; close: () => Promise<void> }> => startLocalStore({ heapMb: 2048 });
