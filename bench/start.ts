/**
 * Local start time (DESIGN §8): from the `npm start` command to the first 200 of
 * `GET /intervals`, with the install warm. A first start has no data folder yet (table
 * created, demo fleet seeded, key pair generated); a warm start reuses the data folder of the
 * previous one. ROUNDS (default 3) rounds of one first start then two warm starts, each a
 * fresh process group on free ports. Targets: median warm <= 10 s, median first <= 20 s.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopGroup } from '../scripts/local/offline';
import { freePort } from '../scripts/local/ports';
import { median, root, round, writeResult } from './lib';

const ROUNDS = Number(process.env.BENCH_START_ROUNDS ?? 3);
const WARM_PER_ROUND = 2;
const KEY = 'bench-start-key';
const TIMEOUT_MS = 120_000;

interface Start {
  kind: 'first' | 'warm';
  /** command to first answer, measured by the caller */
  seconds: number;
  /** what `npm start` printed as its own ready time */
  printed: number | undefined;
}

const startOnce = async (kind: Start['kind'], dataDir: string): Promise<Start> => {
  const port = await freePort();
  const began = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      DOCS_PORT: String(await freePort()),
      API_KEY: KEY,
      ESBUILD_WORK_FOLDER: '.esbuild-bench-start',
    },
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  try {
    while (performance.now() - began < TIMEOUT_MS) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output}`);
      const status = await fetch(`http://localhost:${port}/dev/intervals`, { headers: { 'x-api-key': KEY } })
        .then((r) => r.status)
        .catch(() => 0);
      if (status === 200) {
        const seconds = (performance.now() - began) / 1000;
        // the ready line follows the first answer by a moment
        await new Promise((r) => setTimeout(r, 300));
        const printed = /API ready at .* in ([\d.]+) s/.exec(output)?.[1];
        return { kind, seconds: round(seconds, 2), printed: printed === undefined ? undefined : Number(printed) };
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`npm start gave no answer within ${TIMEOUT_MS} ms:\n${output}`);
  } finally {
    await stopGroup(child);
  }
};

const main = async () => {
  const starts: Start[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-start-'));
    try {
      for (const kind of ['first', ...Array<'warm'>(WARM_PER_ROUND).fill('warm')] as const) {
        const start = await startOnce(kind, dataDir);
        console.log(`${start.kind} start: ${start.seconds} s (printed ${start.printed ?? '?'} s)`);
        starts.push(start);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const of = (kind: Start['kind']) => starts.filter((s) => s.kind === kind).map((s) => s.seconds);
  const summary = { firstMedianSeconds: round(median(of('first'))), warmMedianSeconds: round(median(of('warm'))), starts };
  writeResult(
    'start',
    summary,
    [
      '# Local start time (`bench/start.ts`)',
      '',
      'From the `npm start` command to the first 200 of `GET /intervals`.',
      '',
      '| start | median | runs (s) | target |',
      '|---|---:|---|---|',
      `| first (no data folder) | ${summary.firstMedianSeconds} s | ${of('first').join(', ')} | <= 20 s |`,
      `| warm (data folder kept) | ${summary.warmMedianSeconds} s | ${of('warm').join(', ')} | <= 10 s |`,
    ].join('\n'),
  );
  console.log(`first start median ${summary.firstMedianSeconds} s, warm start median ${summary.warmMedianSeconds} s`);
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
