import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/registry';

/**
 * Code comments give the reason in words. An issue number tells a reader nothing without the
 * tracker at hand, and goes stale when the code moves on, so none may stand in lib/, functions/,
 * scripts/ or schemas/ (whose texts reach the OpenAPI document); tests may name the issue they check.
 */
const FOLDERS = ['lib', 'functions', 'scripts', 'schemas'];
const CITES_ISSUE = /issue [0-9]+/i;

const filesUnder = (folder: string): string[] =>
  readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .filter((file) => !file.split('/').includes('node_modules'));

/** `file:line: text` of each line that cites an issue number. */
const citations = (files: readonly string[]): string[] =>
  files.flatMap((file) =>
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .flatMap((line, i) => (CITES_ISSUE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );

describe('code comments', () => {
  it('recognises a line that cites an issue number, in any case', () => {
    expect(CITES_ISSUE.test(' * retried (issue 24 item 4): a 5xx')).toBe(true);
    expect(CITES_ISSUE.test('// see Issue 7')).toBe(true);
    expect(CITES_ISSUE.test(' * a known issue with the vendor, 3 retries')).toBe(false);
  });

  it('cite no issue number in lib/, functions/, scripts/ or schemas/: they give the reason in words', () => {
    const files = FOLDERS.flatMap(filesUnder);
    expect(files.length).toBeGreaterThan(100);
    expect(citations(files)).toEqual([]);
  });
});
