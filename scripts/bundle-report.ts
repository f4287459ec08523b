/**
 * What a function's bundle carries (issue 13, DESIGN §8 "at most 1.2x the floor's size").
 * Builds with the cold-start bench's options (serverless.yml's) and an esbuild metafile.
 *
 *   npx tsx scripts/bundle-report.ts                  size and x floor of every function, largest first
 *   npx tsx scripts/bundle-report.ts devicesRefresh   what it carries above the floor, by package and by our file
 */
import { build } from 'esbuild';
import { bundleOptions, floorEntry, handlers } from '../bench/coldstart';
import { root } from '../bench/lib';

type Contents = { size: number; inputs: Map<string, number> };

const contents = async (entry: string): Promise<Contents> => {
  const { outputFiles, metafile } = await build({ ...bundleOptions, entryPoints: [entry], outfile: 'out.js', write: false, metafile: true });
  const inputs = new Map<string, number>();
  for (const output of Object.values(metafile.outputs))
    for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) inputs.set(file, (inputs.get(file) ?? 0) + bytesInOutput);
  return { size: outputFiles[0]!.contents.byteLength, inputs };
};

/** a package's name for files under node_modules, else our own file */
const owner = (file: string) => {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  return match ? match[1]! : file.replace(`${root}/`, '');
};

const kib = (bytes: number) => (bytes / 1024).toFixed(1).padStart(7);

const table = (rows: Map<string, number>, limit: number) =>
  [...rows]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, bytes]) => `${kib(bytes)} KiB  ${name}`)
    .join('\n');

const main = async () => {
  const floor = await contents(floorEntry);
  const all = await handlers();
  const wanted = process.argv.slice(2);
  if (wanted.length === 0) {
    const sizes = [];
    for (const { name, entry } of all) sizes.push({ name, size: (await contents(entry)).size });
    sizes.sort((a, b) => b.size - a.size);
    console.log(`floor ${kib(floor.size)} KiB, limit (1.2x) ${kib(floor.size * 1.2)} KiB`);
    for (const { name, size } of sizes) console.log(`${kib(size)} KiB  ${(size / floor.size).toFixed(3)}  ${name}`);
    return;
  }
  for (const name of wanted) {
    const fn = all.find((f) => f.name === name);
    if (!fn) throw new Error(`no function ${name}`);
    const own = await contents(fn.entry);
    const byPackage = new Map<string, number>();
    const byFile = new Map<string, number>();
    for (const [file, bytes] of own.inputs) {
      const above = bytes - (floor.inputs.get(file) ?? 0);
      if (above <= 0) continue;
      const who = owner(file);
      const group = file.includes('node_modules') ? who : who.split('/').slice(0, -1).join('/') || who;
      byPackage.set(group, (byPackage.get(group) ?? 0) + above);
      if (!file.includes('node_modules')) byFile.set(who, above);
    }
    const limit = floor.size * 1.2;
    console.log(`\n${name}: ${kib(own.size)} KiB = ${(own.size / floor.size).toFixed(3)}x floor; ${kib(own.size - limit)} KiB above the 1.2x limit`);
    console.log(`above the floor, by package or folder:\n${table(byPackage, 40)}`);
    console.log(`our files:\n${table(byFile, 60)}`);
  }
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
