/**
 * The generated validators and route bindings (`npm run build`) for `npm start`, rebuilt only
 * when something they may derive from changed. Compiling them costs 3-5 s of CPU, most of a
 * warm start on two cores; a start with the same sources reuses the last build. The stamp is a
 * hash of every source the generator could read (schemas/, lib/, scripts/, the package and
 * TypeScript settings) and the names of the generated files, kept in node_modules/.cache.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');
const stampFile = join(root, 'node_modules', '.cache', 'device-monitoring', 'build-stamp');
const SOURCE_DIRS = ['schemas', 'lib', 'scripts'];
const SOURCE_FILES = ['package.json', 'package-lock.json', 'tsconfig.json'];
const OUTPUT_DIRS = ['generated/validators', 'generated/routes'];

const filesUnder = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true, recursive: true })
        .filter((entry) => entry.isFile() && /\.(ts|js|json)$/.test(entry.name))
        .map((entry) => join(entry.parentPath, entry.name))
        .sort()
    : [];

const stampNow = (): string => {
  const hash = createHash('sha256');
  for (const file of [...SOURCE_DIRS.flatMap((dir) => filesUnder(join(root, dir))), ...SOURCE_FILES.map((f) => join(root, f))]) {
    hash.update(file).update('\0');
    if (existsSync(file)) hash.update(readFileSync(file));
  }
  // a deleted or hand-edited output needs a build too: its names and contents count
  for (const file of OUTPUT_DIRS.flatMap((dir) => filesUnder(join(root, dir)))) hash.update(file).update(readFileSync(file));
  return hash.digest('hex');
};

/** Runs the build unless the sources and outputs are those of the last build. Resolves with whether it built. */
export const buildOnce = async (): Promise<boolean> => {
  const before = stampNow();
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === before) return false;
  const { build } = await import('../generate');
  await build();
  mkdirSync(dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, stampNow());
  return true;
};
