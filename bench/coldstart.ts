/**
 * Cold start per function (DESIGN §8): bundle size and module import time of every handler
 * the contracts declare (scripts/registry.ts), against the floor bundle (bench/floor.ts), each built with the
 * options serverless.yml gives serverless-esbuild. Import time is the median of fresh
 * `node` processes, floor and function interleaved; the import ratio is the median of the
 * per-pair ratios (function sample / the floor sample beside it), so load drift cancels.
 * Targets: size <= 1.2x floor, import <= 1.25x floor. A function whose import ratio is above
 * the target after RUNS pairs gets BENCH_RECHECK_RUNS (default 2x RUNS) more, and its figure is
 * the median of all its pairs: one noisy burst on a shared machine does not decide it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import { build as generate } from '../scripts/generate';
import { functionDefs } from '../scripts/registry';
import { median, root, round, writeResult } from './lib';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const RECHECK_RUNS = Number(process.env.BENCH_RECHECK_RUNS ?? 2 * RUNS);
const SIZE_TARGET = 1.2;
const IMPORT_TARGET = 1.25;

export const handlers = async () => (await functionDefs()).map((fn) => ({ name: fn.functionName, entry: join(root, fn.handlerFile) }));

// the packages serverless.yml leaves out of the bundles (custom.esbuild.exclude)
const external = JSON.parse(
  (/^\s*exclude: (\[.*\])\s*$/m.exec(readFileSync(join(root, 'serverless.yml'), 'utf8'))?.[1] ?? '[]').replace(/'/g, '"'),
) as string[];

/** the options serverless.yml gives serverless-esbuild (custom.esbuild) */
export const bundleOptions = {
  bundle: true,
  minify: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external,
  mainFields: ['module', 'main'],
  tsconfig: join(root, 'tsconfig.json'),
  logLevel: 'error',
} satisfies BuildOptions;

export const floorEntry = join(root, 'bench', 'floor.ts');

const bundle = async (entry: string, outfile: string) => {
  await build({ ...bundleOptions, entryPoints: [entry], outfile });
  return statSync(outfile).size;
};

const importMs = (file: string): number =>
  Number(
    execFileSync(
      process.execPath,
      ['-e', `const t=process.hrtime.bigint();require(${JSON.stringify(file)});process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))`],
      // NODE_PATH: excluded packages resolve from node_modules, as Lambda resolves them from
      // the runtime's SDK and the Powertools layer (/opt/nodejs/node_modules)
      { env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', TABLE_NAME: 'bench', NODE_PATH: join(root, 'node_modules') } },
    ).toString(),
  );

export const runColdStartBench = async () => {
  await generate();
  const out = mkdtempSync(join(tmpdir(), 'coldstart-'));
  const floorFile = join(out, 'floor.js');
  const floorSize = await bundle(floorEntry, floorFile);
  const floorTimes: number[] = [];
  const rows = [];
  for (const { name, entry } of await handlers()) {
    const file = join(out, `${name}.js`);
    const size = await bundle(entry, file);
    const times: number[] = [];
    const ratios: number[] = [];
    const sample = (runs: number) => {
      for (let i = 0; i < runs; i++) {
        const floor = importMs(floorFile);
        const own = importMs(file);
        floorTimes.push(floor);
        times.push(own);
        // each sample against the floor sample taken beside it: drift in machine load cancels out
        ratios.push(own / floor);
      }
    };
    sample(RUNS);
    const firstRatio = median(ratios);
    if (firstRatio > IMPORT_TARGET && RECHECK_RUNS > 0) sample(RECHECK_RUNS);
    rows.push({ name, size, importMs: median(times), importRatio: median(ratios), samples: ratios.length, ...(ratios.length > RUNS ? { firstImportRatio: round(firstRatio, 3) } : {}) });
  }
  const floorImport = median(floorTimes);
  const results = rows.map((r) => ({
    ...r,
    importMs: round(r.importMs),
    sizeRatio: round(r.size / floorSize, 3),
    importRatio: round(r.importRatio, 3),
  }));
  const worstSize = Math.max(...results.map((r) => r.sizeRatio));
  const worstImport = Math.max(...results.map((r) => r.importRatio));
  const met = (v: number, t: number) => (v <= t ? 'met' : 'NOT met');
  const markdown = [
    '# Cold start per function',
    '',
    `Floor (middy + DocumentClient GetItem, minified): ${(floorSize / 1024).toFixed(0)} KiB, import ${round(floorImport)} ms (median of ${floorTimes.length}).`,
    `Worst size ratio ${worstSize} (target <= ${SIZE_TARGET}: ${met(worstSize, SIZE_TARGET)}); worst import ratio ${worstImport} (target <= ${IMPORT_TARGET}: ${met(worstImport, IMPORT_TARGET)}).`,
    '',
    `Pairs per function: ${RUNS}; a function above the import target after those gets ${RECHECK_RUNS} more, and its figure is the median of all (the first figure in brackets).`,
    '',
    '| function | KiB | size x floor | import ms | import x floor | pairs |',
    '|---|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.name} | ${(r.size / 1024).toFixed(0)} | ${r.sizeRatio} | ${r.importMs} | ${r.importRatio}${'firstImportRatio' in r ? ` (${r.firstImportRatio})` : ''} | ${r.samples} |`,
    ),
  ].join('\n');
  rmSync(out, { recursive: true, force: true });
  writeResult('coldstart', { runs: RUNS, floor: { size: floorSize, importMs: round(floorImport) }, worstSize, worstImport, functions: results }, markdown);
  console.log(markdown);
};

if (require.main === module) {
  runColdStartBench().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
