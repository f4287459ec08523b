/**
 * `npm run bench`: every benchmark of DESIGN §8, each in its own process (each points the
 * shared DynamoDB client at a store of its own), then the summary table in bench/README.md.
 * `npm run bench -- warm stats` runs only those (an unknown name is an error). Results in
 * bench/results/.
 *
 * Each benchmark runs with a marker in its environment that every process it starts inherits
 * (scripts/local/processes.ts): when it ends, nothing carrying the marker may still run. A
 * leftover is killed and the run fails, as does a benchmark that failed; the others still run.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { markedProcesses, startMarker } from '../scripts/local/processes';
import { root } from './lib';
import { writeSummary } from './summary';

const ALL = ['coldstart', 'warm', 'stats', 'load', 'start', 'live', 'capacity', 'memory', 'providers', 'push'];
const asked = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const unknown = asked.filter((name) => !ALL.includes(name));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${ALL.join(', ')}`);
  process.exit(2);
}

const failures: string[] = [];
for (const name of asked.length ? asked : ALL) {
  console.log(`\n== bench ${name}`);
  const marker = startMarker('BENCH_RUN_ID');
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench', `${name}.ts`)], {
    cwd: root,
    stdio: 'inherit',
    // the benchmarks call handlers with the API key, as `npm start` serves them (ACCESS_MODE key)
    env: { ACCESS_MODE: 'key', ...process.env, ...marker },
  });
  if (run.status !== 0) failures.push(`${name} failed (${run.signal ?? `exit ${run.status}`})`);
  const left = markedProcesses(marker);
  if (left.length) {
    for (const { pid } of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone meanwhile */
      }
    }
    failures.push(`${name} left ${left.length} process(es) running (killed): ${left.map((p) => `${p.pid} ${p.command}`).join('; ')}`);
  }
}
writeSummary();
if (failures.length) {
  console.error(`\n${failures.join('\n')}`);
  process.exit(1);
}
