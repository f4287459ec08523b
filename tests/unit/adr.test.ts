import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/registry';
import { headingsOf, slug } from '../support/markdown';

/*
 * docs/adr/NNNN-title.md: one decision of the architecture that holds, each with its date
 * (docs/adr/README.md), indexed in docs/adr/README.md; how one feature behaves is a rule in
 * docs/guide/rules/<domain>.md. Code and docs cite either beside the reason they summarise.
 */
const ADR_DIR = join(root, 'docs/adr');
const RULES_DIR = join(root, 'docs/guide/rules');
const INDEX = join(ADR_DIR, 'README.md');
const MAX_ADRS = 80;
const NEWCOMER_ADRS = 20;

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
const titleOf = (adr: Adr) => adr.heading?.replace(/^# \d{4}\. /, '');

/** An ISO calendar date that exists (2026-02-30 does not). */
const isDate = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);

/** The index's rows: `| [NNNN](NNNN-title.md) | Title | decision | read first |`. */
const indexRows = () =>
  readFileSync(INDEX, 'utf8')
    .split('\n')
    .filter((line) => /^\| \[\d{4}\]/.test(line))
    .map((line) => {
      const [link = '', title = '', decision = '', newcomer = ''] = line.slice(2, -2).split(' | ');
      return { line, link, title, decision, newcomer: newcomer.trim() };
    });

/** Every text file of the repository, outside dependencies, build output and git. */
const textFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name.startsWith('.') || ['node_modules', 'dist', 'coverage', 'generated'].includes(name)) return [];
    if (statSync(path).isDirectory()) return textFiles(path);
    return /\.(ts|js|mjs|cjs|md|ya?ml|json|sh)$/.test(name) ? [path] : [];
  });

describe('architecture decision records', () => {
  it(`are named NNNN-kebab-title.md, at most ${MAX_ADRS} of them`, () => {
    expect(adrFiles.length).toBeGreaterThan(0);
    expect(adrFiles.length).toBeLessThanOrEqual(MAX_ADRS);
    for (const file of adrFiles) expect(file, file).toMatch(/^\d{4}-[a-z0-9]+(-[a-z0-9]+)*\.md$/);
  });

  it('each open with "# NNNN. Title" carrying their own file number', () => {
    for (const adr of adrs) expect(adr.heading, adr.file).toMatch(new RegExp(`^# ${adr.number}\\. \\S`));
  });

  it('use every number once', () => {
    const numbers = adrs.map((adr) => adr.number);
    expect(numbers.filter((number, i) => numbers.indexOf(number) !== i)).toEqual([]);
  });

  it('each hold: status accepted, nothing superseded, no "Updated:" notes', () => {
    for (const adr of adrs) {
      expect(adr.status, adr.file).toBe('accepted');
      const text = readFileSync(join(ADR_DIR, adr.file), 'utf8');
      expect(text, `${adr.file} says it is superseded`).not.toMatch(/superseded by \d{4}/i);
      expect(text, `${adr.file} carries an "Updated:" note: fold it into the text`).not.toMatch(/\bUpdated\b[^:\n]*:/);
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

describe('docs/adr/README.md, the index', () => {
  it('lists exactly the ADR files, each once, with its current title and a decision', () => {
    const rows = indexRows();
    const listed: string[] = [];
    for (const { line, link, title, decision } of rows) {
      const match = link.match(/^\[(\d{4})\]\(((\d{4})-[^)]+\.md)\)$/);
      expect(match, `${line}: the link is not [NNNN](NNNN-title.md)`).not.toBeNull();
      const [, number = '', file = '', fileNumber = ''] = match ?? [];
      expect(fileNumber, line).toBe(number);
      const adr = adrs.find((candidate) => candidate.file === file);
      expect(adr, `${line}: no ADR ${file}`).toBeDefined();
      if (adr) expect(title, `${line}: the ADR is titled "${titleOf(adr)}"`).toBe(titleOf(adr));
      expect(decision.trim().length, `${line}: no decision`).toBeGreaterThan(10);
      listed.push(file);
    }
    expect([...listed].sort()).toEqual([...adrFiles].sort());
  });

  it(`marks ${NEWCOMER_ADRS} ADRs for a newcomer to read first`, () => {
    const marked = indexRows().filter((row) => row.newcomer !== '');
    for (const row of marked) expect(row.newcomer, row.line).toBe('read first');
    expect(marked.length).toBe(NEWCOMER_ADRS);
  });
});

describe('references to ADRs and rules', () => {
  const files = textFiles(root);

  it('docs/decisions.md is gone, and nothing quotes it', () => {
    expect(existsSync(join(root, 'docs/decisions.md'))).toBe(false);
    const quoting = files.filter((path) => path !== __filename && readFileSync(path, 'utf8').includes('docs/decisions.md'));
    expect(quoting.map((path) => relative(root, path))).toEqual([]);
  });

  it('every path naming an ADR or a rules page (and the heading of a rule quoted after it) names one that exists', () => {
    const numbers = new Set(adrs.map((adr) => adr.number));
    const missing: string[] = [];
    for (const path of files) {
      const text = readFileSync(path, 'utf8');
      const where = relative(root, path);
      for (const [, number = '', name] of text.matchAll(/docs\/adr\/(\d{4})(-[a-z0-9-]+\.md)?/g)) {
        if (name ? !existsSync(join(ADR_DIR, `${number}${name}`)) : !numbers.has(number)) missing.push(`${where}: docs/adr/${number}${name ?? ''}`);
      }
      for (const [, page = '', rule] of text.replaceAll('\\"', '"').matchAll(/docs\/guide\/rules\/([a-z0-9-]+\.md)(?: "([^"\n]+)")?/g)) {
        const file = join(RULES_DIR, page);
        if (!existsSync(file)) missing.push(`${where}: docs/guide/rules/${page}`);
        else if (rule !== undefined && !headingsOf(file).includes(rule)) missing.push(`${where}: docs/guide/rules/${page} "${rule}"`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every Markdown link into docs/adr/ or docs/guide/rules/ resolves, headings included', () => {
    const broken: string[] = [];
    for (const path of files.filter((file) => file.endsWith('.md'))) {
      const text = readFileSync(path, 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue;
        const [link = '', anchor] = target.split('#');
        const resolved = link ? resolve(dirname(path), link) : path;
        const inside = relative(root, resolved);
        if (!inside.startsWith('docs/adr') && !inside.startsWith('docs/guide/rules')) continue;
        if (!existsSync(resolved)) broken.push(`${relative(root, path)}: ${target}`);
        else if (anchor && statSync(resolved).isFile() && !headingsOf(resolved).map(slug).includes(anchor)) broken.push(`${relative(root, path)}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('docs/guide/rules, one page per domain', () => {
  const pages = readdirSync(RULES_DIR).filter((name) => name.endsWith('.md'));

  it('each rule is a section with its reason', () => {
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) {
      const sections = readFileSync(join(RULES_DIR, page), 'utf8').split(/^## /m).slice(1);
      expect(sections.length, page).toBeGreaterThan(0);
      for (const section of sections) expect(section, `${page}: "${section.split('\n')[0]}" gives no *Why:*`).toContain('*Why:*');
    }
  });

  it('name each rule once within a page', () => {
    for (const page of pages) {
      const rules = headingsOf(join(RULES_DIR, page)).map(slug);
      expect(rules.filter((rule, i) => rules.indexOf(rule) !== i), page).toEqual([]);
    }
  });
});
