import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/registry';

/*
 * docs/adr/NNNN-title.md: one decision each, with a status and a date (docs/adr/README.md), and
 * docs/decisions.md, the index from the old text's titles to them, which the code's comments
 * still quote as docs/decisions.md followed by a title in double quotes.
 */
const ADR_DIR = join(root, 'docs/adr');
const INDEX = join(root, 'docs/decisions.md');

interface Adr {
  file: string;
  number: string;
  heading: string | undefined;
  status: string | undefined;
  date: string | undefined;
}

const adrFiles = readdirSync(ADR_DIR).filter((name) => name.endsWith('.md') && name !== 'README.md');

const adrs: Adr[] = adrFiles.map((file) => {
  const lines = readFileSync(join(ADR_DIR, file), 'utf8').split('\n');
  const field = (name: string) => lines.find((line) => line.startsWith(`- ${name}: `))?.slice(`- ${name}: `.length);
  return { file, number: file.slice(0, 4), heading: lines[0], status: field('Status'), date: field('Date') };
});
const byNumber = new Map(adrs.map((adr) => [adr.number, adr]));
const titleOf = (adr: Adr) => adr.heading?.replace(/^# \d{4}\. /, '');

/** An ISO calendar date that exists (2026-02-30 does not). */
const isDate = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);

/** The rows of the index's tables: `| old title | [NNNN. Title](adr/file.md) | status |`. */
const indexRows = () =>
  readFileSync(INDEX, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| old title') && !line.startsWith('|---'))
    .map((line) => {
      const [title = '', link = '', status = ''] = line.slice(2, -2).split(' | ');
      return { line, title, link, status };
    });

/** The old headings of the index (its `## ` lines) and the old titles of its rows. */
const indexTitles = () => [
  ...readFileSync(INDEX, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('## '))
    .map((line) => line.slice(3)),
  ...indexRows().map((row) => row.title),
];

/** Every text file of the repository that may quote the index, outside dependencies and build output. */
const quotingFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name.startsWith('.') || ['node_modules', 'dist', 'coverage'].includes(name)) return [];
    if (statSync(path).isDirectory()) return quotingFiles(path);
    return /\.(ts|js|mjs|md|ya?ml|json)$/.test(name) && path !== INDEX ? [path] : [];
  });

describe('architecture decision records', () => {
  it('are named NNNN-kebab-title.md', () => {
    expect(adrFiles.length).toBeGreaterThan(0);
    for (const file of adrFiles) expect(file, file).toMatch(/^\d{4}-[a-z0-9]+(-[a-z0-9]+)*\.md$/);
  });

  it('each open with "# NNNN. Title" carrying their own file number', () => {
    for (const adr of adrs) expect(adr.heading, adr.file).toMatch(new RegExp(`^# ${adr.number}\\. \\S`));
  });

  it('use every number once', () => {
    const numbers = adrs.map((adr) => adr.number);
    expect(numbers.filter((number, i) => numbers.indexOf(number) !== i)).toEqual([]);
  });

  it('each have a status: accepted, or superseded by another ADR that exists', () => {
    for (const adr of adrs) {
      expect(adr.status, adr.file).toMatch(/^(accepted|superseded by \d{4})$/);
      const by = adr.status?.match(/^superseded by (\d{4})$/)?.[1];
      if (by === undefined) continue;
      expect(by, `${adr.file} is superseded by itself`).not.toBe(adr.number);
      expect(byNumber.has(by), `${adr.file} is superseded by ${by}, which does not exist`).toBe(true);
    }
  });

  it('each have a date', () => {
    for (const adr of adrs) expect(adr.date !== undefined && isDate(adr.date), `${adr.file}: Date ${adr.date}`).toBe(true);
  });

  it('each have a context, a decision and consequences', () => {
    for (const { file } of adrs) {
      const text = readFileSync(join(ADR_DIR, file), 'utf8');
      for (const section of ['## Context', '## Decision', '## Consequences']) expect(text.split('\n'), `${file}: ${section}`).toContain(section);
    }
  });
});

describe('docs/decisions.md, the index of the old titles', () => {
  it('links every old title to an existing ADR, with its current title and status', () => {
    const rows = indexRows();
    expect(rows.length).toBeGreaterThan(0);
    for (const { line, title, link, status } of rows) {
      expect(title, line).not.toBe('');
      const match = link.match(/^\[(\d{4})\. (.+)\]\(adr\/((\d{4})-[^)]+\.md)\)$/);
      expect(match, `${line}: the link is not [NNNN. Title](adr/NNNN-title.md)`).not.toBeNull();
      const [, number = '', text = '', file = '', fileNumber = ''] = match ?? [];
      expect(fileNumber, line).toBe(number);
      const adr = byNumber.get(number);
      expect(adr?.file, `${line}: no ADR ${file}`).toBe(file);
      if (!adr) continue;
      expect(text, `${line}: the ADR is titled "${titleOf(adr)}"`).toBe(titleOf(adr));
      const shown = status.replace(/^superseded by \[(\d{4})\]\(adr\/\d{4}-[^)]+\.md\)$/, 'superseded by $1');
      expect(shown, `${line}: the ADR's status is "${adr.status}"`).toBe(adr.status);
      const by = adr.status?.match(/^superseded by (\d{4})$/)?.[1];
      if (by) expect(status, line).toContain(`(adr/${byNumber.get(by)?.file})`);
    }
  });

  it('holds every title the code and the docs quote from it', () => {
    const titles = indexTitles().map((title) => title.toLowerCase());
    const unresolved: string[] = [];
    for (const path of quotingFiles(root)) {
      const text = readFileSync(path, 'utf8').replaceAll('\\"', '"');
      for (const quote of text.matchAll(/docs\/decisions\.md\s*((?:"[^"\n]+"(?:\s*,\s*)?)+)/g)) {
        for (const [, title = ''] of quote[1]!.matchAll(/"([^"\n]+)"/g)) {
          if (!titles.some((known) => known.startsWith(title.toLowerCase()))) unresolved.push(`${relative(root, path)}: "${title}"`);
        }
      }
    }
    expect(unresolved).toEqual([]);
  });
});
