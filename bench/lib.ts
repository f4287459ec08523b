import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';

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
export const writeResult = (name: string, data: object, markdown: string) => {
  mkdirSync(resultsDir, { recursive: true });
  const loadAverage = { atStart: loadAtStart, atEnd: loadavg().map((v) => Number(v.toFixed(2))) };
  const stamp = { measuredAt: new Date().toISOString(), node: process.version, cpus: cpus().length, loadAverage };
  writeFileSync(join(resultsDir, `${name}.json`), `${JSON.stringify({ ...stamp, ...data }, null, 2)}\n`);
  const load = `load average ${loadAverage.atStart.join(' / ')} at the start, ${loadAverage.atEnd.join(' / ')} at the end`;
  writeFileSync(join(resultsDir, `${name}.md`), `${markdown}\n\n_${stamp.measuredAt}, Node ${stamp.node}, ${stamp.cpus} cores, ${load}_\n`);
};
