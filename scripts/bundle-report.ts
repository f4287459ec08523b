/**
 * What a function's bundle carries so it can be kept at most 1.2x the floor's size, which keeps cold starts short (DESIGN §8).
 * Builds with the cold-start bench's options (serverless.yml's) and an esbuild metafile.
 *
 *   npx tsx scripts/bundle-report.ts                  size and x floor of every function, largest first
 *   npx tsx scripts/bundle-report.ts devicesRefresh   what it carries above the floor, by package or folder and by our file
 */
import { aboveFloor, contents, floorEntry, handlers } from '../bench/coldstart';

const LIMIT = 1.2;

const kib = (bytes: number) => (bytes / 1024).toFixed(1).padStart(7);
const table = (rows: [string, number][]) => rows.map(([name, bytes]) => `${kib(bytes)} KiB  ${name}`).join('\n');

const main = async () => {
  const floor = await contents(floorEntry);
  const all = await handlers();
  const wanted = process.argv.slice(2);
  if (wanted.length === 0) {
    const sizes = [];
    for (const { name, entry } of all) sizes.push({ name, size: (await contents(entry)).size });
    sizes.sort((a, b) => b.size - a.size);
    console.log(`floor ${kib(floor.size)} KiB, limit (${LIMIT}x) ${kib(floor.size * LIMIT)} KiB`);
    for (const { name, size } of sizes) console.log(`${kib(size)} KiB  ${(size / floor.size).toFixed(3)}  ${name}`);
    return;
  }
  for (const name of wanted) {
    const fn = all.find((f) => f.name === name);
    if (!fn) throw new Error(`no function ${name}`);
    const own = await contents(fn.entry);
    const { byGroup, byFile } = aboveFloor(own, floor);
    console.log(`\n${name}: ${kib(own.size)} KiB = ${(own.size / floor.size).toFixed(3)}x floor; ${kib(own.size - floor.size * LIMIT)} KiB above the ${LIMIT}x limit`);
    console.log(`above the floor, by package or folder:\n${table(byGroup)}`);
    console.log(`our files:\n${table(byFile)}`);
  }
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
