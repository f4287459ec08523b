/**
 * `npm run bench -- memory` (issue 23): the memory the functions that hold the inventory need at
 * 100k devices (1,000 rooms), each measured in a process of its own against a store in another:
 * the sync (first sync writing every device, then a 10% disconnect storm compared against the
 * whole stored inventory) and the evaluator's scheduled run (full pass over the inventory, then the
 * storm's queue: 10k raises). Peak heap (sampled every 20 ms) and the kernel's maximum RSS, against
 * each function's `memorySize` (generated/functions.yml, else provider.memorySize). The processes
 * run TypeScript through tsx, whose loader the deployed bundles do not carry: the figures are
 * a little above what Lambda will see. Writes bench/results/memory.json and .md.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { storeEnv } from '../scripts/local/env';
import { root, round, storeProcess, writeResult } from './lib';

const SIZE = Number(process.env.BENCH_MEMORY_DEVICES ?? 100_000);
/** Functions whose work each measurement stands for. */
const MEASURED = { sync: ['devicesSync'], evaluator: ['alarmsEvaluateOnSchedule', 'alarmsEvaluateNow'] } as const;
/** memorySize must be at least this multiple of the measured peak RSS. */
export const HEADROOM = 1.5;

interface ChildFigures {
  role: string;
  devices: number;
  steps: Record<string, { ms: number; heapPeakMB: number; rssPeakMB: number }>;
  heapPeakMB: number;
  maxRssMB: number;
  outcome: unknown;
}

const configured = (): Record<string, number> => {
  const functions = load(readFileSync(join(root, 'generated', 'functions.yml'), 'utf8')) as Record<string, { memorySize?: number }>;
  const fallback = Number(/^ {2}memorySize: (\d+)$/m.exec(readFileSync(join(root, 'serverless.yml'), 'utf8'))?.[1]);
  return Object.fromEntries(Object.entries(functions).map(([name, fn]) => [name, fn.memorySize ?? fallback]));
};

/** Measures both processes against a fresh store. */
const measureAll = async (): Promise<Record<string, ChildFigures>> => {
  const store = await storeProcess();
  const env = {
    ...process.env,
    ...storeEnv(store.endpoint),
    TABLE_NAME: 'bench-memory',
    SHARDS: process.env.SHARDS ?? '8',
    MAILER: 'outbox',
    POWERTOOLS_LOG_LEVEL: 'WARN',
    POWERTOOLS_METRICS_DISABLED: 'true',
  };
  const measure = (role: keyof typeof MEASURED): ChildFigures => {
    console.log(`${role} at ${SIZE} devices…`);
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--expose-gc', join(root, 'bench', 'memory-child.ts'), role, String(SIZE)], {
      cwd: root,
      env,
      maxBuffer: 16 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const figures = JSON.parse(out.toString().trim().split('\n').pop()!) as ChildFigures;
    console.log(JSON.stringify(figures));
    return figures;
  };
  try {
    return { sync: measure('sync'), evaluator: measure('evaluator') };
  } finally {
    await store.close();
  }
};

/**
 * The figures against each function's configured memory. `--report` only re-reads the last
 * measurement (bench/results/memory.json) against the configuration as it is now: after changing
 * a `memorySize`, without measuring again.
 */
const main = async () => {
  const previous = join(root, 'bench', 'results', 'memory.json');
  const earlier = process.argv.includes('--report') ? (JSON.parse(readFileSync(previous, 'utf8')) as Parameters<typeof writeResult>[3] & { measured: Record<string, ChildFigures> }) : undefined;
  const measured = earlier?.measured ?? (await measureAll());
  const memory = configured();
  const functions = Object.entries(MEASURED).flatMap(([role, names]) =>
    names.map((name) => {
      const figures = measured[role]!;
      const memorySize = memory[name]!;
      return { name, role, maxRssMB: figures.maxRssMB, heapPeakMB: figures.heapPeakMB, memorySize, share: round(figures.maxRssMB / memorySize, 2), headroom: round(memorySize / figures.maxRssMB, 2) };
    }),
  );
  const worstShare = Math.max(...functions.map((f) => f.share));
  const rows = functions.map(
    (f) => `| ${f.name} | ${f.role} | ${f.maxRssMB} MB | ${f.heapPeakMB} MB | ${f.memorySize} MB | ${f.headroom}x | ${f.headroom >= HEADROOM ? 'met' : '**NOT met**'} |`,
  );
  const steps = Object.values(measured).flatMap((m) =>
    Object.entries(m.steps).map(([name, s]) => `| ${m.role} | ${name} | ${(s.ms / 1000).toFixed(1)} s | ${s.heapPeakMB} MB | ${s.rssPeakMB} MB |`),
  );
  const markdown = [
    `# Memory at ${SIZE} devices (\`bench/memory.ts\`)`,
    '',
    `| function | work | peak RSS | peak heap | memorySize | memorySize / peak RSS | target >= ${HEADROOM}x |`,
    '|---|---|---:|---:|---:|---:|---|',
    ...rows,
    '',
    '| process | step | time | peak heap | peak RSS (sampled) |',
    '|---|---|---:|---:|---:|',
    ...steps,
  ].join('\n');
  const devices = measured.sync!.devices;
  writeResult('memory', { devices, headroomTarget: HEADROOM, worstShare, functions, measured }, markdown.replace(`at ${SIZE} devices`, `at ${devices} devices`), earlier);
  console.log(markdown);
  if (functions.some((f) => f.headroom < HEADROOM)) process.exitCode = 1;
};

void main();
