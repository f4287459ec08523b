import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const root = resolve(__dirname, '..');
export const resultsDir = join(root, 'bench', 'results');

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/** Writes `bench/results/<name>.json` and `<name>.md`, stamped with the machine and time. */
export const writeResult = (name: string, data: object, markdown: string) => {
  mkdirSync(resultsDir, { recursive: true });
  const stamp = { measuredAt: new Date().toISOString(), node: process.version, cpus: require('node:os').cpus().length };
  writeFileSync(join(resultsDir, `${name}.json`), `${JSON.stringify({ ...stamp, ...data }, null, 2)}\n`);
  writeFileSync(join(resultsDir, `${name}.md`), `${markdown}\n\n_${stamp.measuredAt}, Node ${stamp.node}, ${stamp.cpus} cores_\n`);
};
