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
import { median, reportResult, root, round, runWhenMain } from './lib';

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
  target: 'node22',
  format: 'cjs',
  external,
  mainFields: ['module', 'main'],
  dropLabels: ['dataModel'],
  tsconfig: join(root, 'tsconfig.json'),
  logLevel: 'error',
} satisfies BuildOptions;

export const floorEntry = join(root, 'bench', 'floor.ts');

/** A bundle's bytes, and the bytes each source file put into it (esbuild's metafile). */
export interface Contents {
  size: number;
  inputs: Map<string, number>;
}

const bundle = async (entry: string, outfile: string): Promise<Contents> => {
  const { metafile } = await build({ ...bundleOptions, entryPoints: [entry], outfile, metafile: true });
  const inputs = new Map<string, number>();
  for (const output of Object.values(metafile.outputs))
    for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) inputs.set(file, (inputs.get(file) ?? 0) + bytesInOutput);
  return { size: statSync(outfile).size, inputs };
};

/** Builds one entry as serverless.yml does, into a temporary file. */
export const contents = async (entry: string): Promise<Contents> => {
  const out = mkdtempSync(join(tmpdir(), 'bundle-'));
  try {
    return await bundle(entry, join(out, 'bundle.js'));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
};

/** our own source file, or the package a file of node_modules belongs to */
const ownerOf = (file: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? file.replace(`${root}/`, '');

/**
 * What a bundle carries above the floor's: bytes by package or by folder of ours
 * (`lib/alarms`), and by file of ours, largest first.
 */
export const aboveFloor = (own: Contents, floor: Contents) => {
  const byGroup = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const [file, bytes] of own.inputs) {
    const above = bytes - (floor.inputs.get(file) ?? 0);
    if (above <= 0) continue;
    const owner = ownerOf(file);
    const ours = !file.includes('node_modules');
    const group = ours ? owner.split('/').slice(0, -1).join('/') || owner : owner;
    byGroup.set(group, (byGroup.get(group) ?? 0) + above);
    if (ours) byFile.set(owner, above);
  }
  const sorted = (rows: Map<string, number>) => [...rows].sort((a, b) => b[1] - a[1]);
  return { byGroup: sorted(byGroup), byFile: sorted(byFile) };
};

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

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
  const floor = await bundle(floorEntry, floorFile);
  const floorSize = floor.size;
  const carried: { name: string; groups: [string, number][] }[] = [];
  const floorTimes: number[] = [];
  const rows = [];
  for (const { name, entry } of await handlers()) {
    const file = join(out, `${name}.js`);
    const own = await bundle(entry, file);
    const { size } = own;
    if (size > SIZE_TARGET * floorSize) carried.push({ name, groups: aboveFloor(own, floor).byGroup.slice(0, 6) });
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
    ...(carried.length
      ? [
          '',
          `What the functions above ${SIZE_TARGET}x carry above the floor, largest first (all of it: \`npx tsx scripts/bundle-report.ts <function>\`):`,
          '',
          ...carried.map(({ name, groups }) => `- ${name}: ${groups.map(([group, bytes]) => `${group} ${kib(bytes)}`).join(', ')}`),
        ]
      : []),
  ].join('\n');
  rmSync(out, { recursive: true, force: true });
  reportResult('coldstart', { runs: RUNS, floor: { size: floorSize, importMs: round(floorImport) }, worstSize, worstImport, functions: results }, markdown);
};

runWhenMain(module, runColdStartBench, false);
