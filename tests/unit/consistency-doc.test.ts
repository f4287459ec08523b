import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/registry';

/*
 * docs/consistency.md names, for every consistency mechanism, the test that proves it. This keeps
 * the doc true: each row of its table names at least one test, and each named test file exists
 * and still holds a test of that name (as written in the source, `%s`/`%i` templates included).
 */
const doc = readFileSync(join(root, 'docs/consistency.md'), 'utf8');

/** The rows of the mechanisms table: numbered lines of the table under "## The table". */
const rows = (() => {
  const section = doc.split(/^## /m).find((part) => part.startsWith('The table')) ?? '';
  return section.split('\n').filter((line) => /^\|\s*\d+\s*\|/.test(line));
})();

/** The tests a row names in its last cell: `path` "name"; "name"; `path` "name" (a name ends before `;`, `(` or the cell's end). */
const testsOf = (row: string): { file: string; name: string }[] => {
  const cells = row.split(/\s\|(?=\s)/);
  const cell = cells[cells.length - 1]!.replace(/\|\s*$/, '');
  const named: { file: string; name: string }[] = [];
  let file: string | undefined;
  for (const match of cell.matchAll(/`(tests\/[^`]+\.test\.ts)`|"(.+?)"(?=\s*;|\s*\(|\s*$)/g)) {
    if (match[1]) file = match[1];
    else if (file && match[2]) named.push({ file, name: match[2] });
  }
  return named;
};

const mechanismOf = (row: string) => row.split('|')[2]!.trim().slice(0, 60);

describe('docs/consistency.md', () => {
  it('has one table of mechanisms, numbered in order', () => {
    expect(rows.length).toBeGreaterThan(30);
    expect(rows.map((row) => Number(row.split('|')[1]))).toEqual(rows.map((_, i) => i + 1));
  });

  it('names at least one test for every mechanism', () => {
    const without = rows.filter((row) => testsOf(row).length === 0).map(mechanismOf);
    expect(without).toEqual([]);
  });

  it('names only test files and test names that exist', () => {
    const missing: string[] = [];
    for (const row of rows) {
      for (const { file, name } of testsOf(row)) {
        const path = join(root, file);
        if (!existsSync(path)) missing.push(`${mechanismOf(row)}: ${file} does not exist`);
        else if (!readFileSync(path, 'utf8').includes(name)) missing.push(`${mechanismOf(row)}: ${file} has no test "${name}"`);
      }
    }
    expect(missing).toEqual([]);
  });
});
