import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/*
 * The modules that read and write the table by access pattern: each domain's `repository.ts` or
 * `repository/` folder, and the generic store modules that keep items of their own (caps, leases,
 * numbered partitions, idempotency keys). The faithful mode settles indexes before a test's call
 * into one of them, and each of their entry points that answers a promise must be declared async.
 */
const root = join(import.meta.dirname, '..', '..');
const GENERIC_ITEM_KEEPERS = ['lib/store/caps.ts', 'lib/store/leases.ts', 'lib/store/partition.ts', 'lib/http/idempotency.ts'];

const walk = (dir: string): string[] =>
  readdirSync(join(root, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    return statSync(join(root, path)).isDirectory() ? walk(path) : [path];
  });

/** Repository files, relative to the repository root (`lib/<domain>/repository.ts`, `lib/<domain>/repository/<name>.ts`). */
export const repositoryFiles = (): string[] => [
  ...walk('lib').filter((path) => /\/repository(\.ts|\/[^/]+\.ts)$/.test(path)),
  ...GENERIC_ITEM_KEEPERS,
].sort();
