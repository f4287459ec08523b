/**
 * `npm run bench`: every benchmark of DESIGN §8, each in its own process (each points the
 * shared DynamoDB client at a store of its own), then the summary table in bench/README.md.
 * `npm run bench -- warm stats` runs only those. Results in bench/results/.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { root } from './lib';
import { writeSummary } from './summary';

const ALL = ['coldstart', 'warm', 'stats', 'load', 'start', 'live'];
const chosen = process.argv.slice(2).filter((name) => ALL.includes(name));

for (const name of chosen.length ? chosen : ALL) {
  console.log(`\n== bench ${name}`);
  execFileSync(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'bench', `${name}.ts`)], {
    cwd: root,
    stdio: 'inherit',
  });
}
writeSummary();
