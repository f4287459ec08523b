import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/registry';
import { anchorsOf } from '../support/markdown';

/** The guide's pages, docs/guide/**\/*.md, relative to the repository. */
const guidePages = (dir = 'docs/guide'): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? guidePages(`${dir}/${entry.name}`) : entry.name.endsWith('.md') ? [`${dir}/${entry.name}`] : [],
  );

/** What a reader of a clone opens: the README, the guide, and the docs beside them (those that exist). */
const READER_DOCS = ['README.md', ...guidePages()];
const DOCS = [
  ...READER_DOCS,
  ...['docs/data-model.md', 'docs/design.md', 'docs/architecture.md', 'docs/consistency.md', 'docs/operations.md'].filter((doc) => existsSync(join(root, doc))),
];

/** Markdown links `[text](target)` outside code blocks. */
const links = (file: string) => {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/i.test(target));
};

describe('the README and docs stand alone in a clone', () => {
  it('the guide has its index and its pages', () => {
    expect(READER_DOCS).toContain('docs/guide/README.md');
    expect(READER_DOCS.length).toBeGreaterThan(10);
  });

  it.each(DOCS)('%s points only inside the repository, at files and headings that exist', (doc) => {
    const file = join(root, doc);
    for (const target of links(file)) {
      const [path = '', anchor] = target.split('#');
      const resolved = path ? resolve(dirname(file), path) : file;
      expect(relative(root, resolved).startsWith('..'), `${doc}: ${target} leaves the repository`).toBe(false);
      expect(existsSync(resolved), `${doc}: ${target} does not exist`).toBe(true);
      if (anchor) expect(anchorsOf(resolved).has(anchor), `${doc}: ${target} has no such heading`).toBe(true);
    }
  });

  it.each(READER_DOCS)('%s names no path outside the repository', (doc) => {
    expect(readFileSync(join(root, doc), 'utf8')).not.toMatch(/\.\.\/shared|\]\(\.\.\/\.\.\/\.\.\//);
  });

  it('every guide page is listed in the guide index, and the README points at the index', () => {
    const index = readFileSync(join(root, 'docs/guide/README.md'), 'utf8');
    for (const page of READER_DOCS.filter((doc) => doc.startsWith('docs/guide/') && doc !== 'docs/guide/README.md')) {
      const inIndex = relative(join(root, 'docs/guide'), join(root, page));
      const folder = inIndex.includes('/') ? `${inIndex.split('/')[0]}/` : undefined;
      expect(index.includes(`](${inIndex})`) || (folder !== undefined && index.includes(`](${folder})`)), `${page} is not in docs/guide/README.md`).toBe(true);
    }
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain('](docs/guide/README.md)');
  });
});

/** The sources a documented variable may be read in, joined (code blocks of the docs count too: commands live there). */
const sources = ['scripts', 'lib', 'functions', 'plugins', 'resources', 'board', 'tests/support'];
const sourceText = (() => {
  const texts: string[] = [readFileSync(join(root, 'serverless.yml'), 'utf8')];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'dist') walk(path);
      } else if (/\.(ts|js|mjs|cjs|json|yml)$/.test(entry.name)) texts.push(readFileSync(join(root, path), 'utf8'));
    }
  };
  for (const dir of sources) walk(dir);
  return texts.join('\n');
})();

describe('what the README and the guide name still exists', () => {
  const scripts = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);

  it.each(READER_DOCS)('%s: every `npm run <script>` is a script of package.json', (doc) => {
    const named = [...readFileSync(join(root, doc), 'utf8').matchAll(/npm run ([\w:.-]*\w)/g)].map((match) => match[1]!);
    for (const script of named) expect(scripts, `${doc}: npm run ${script}`).toContain(script);
  });

  it.each(READER_DOCS)('%s: every repository path in backquotes exists', (doc) => {
    const paths = [...readFileSync(join(root, doc), 'utf8').matchAll(/`((?:lib|functions|scripts|plugins|tests|bench|resources|schemas|client|board|docs|generated|\.ci|\.github)\/[\w./-]*)`/g)]
      .map((match) => match[1]!)
      .filter((path) => !/[<>{}*]/.test(path));
    for (const path of paths) expect(existsSync(join(root, path)), `${doc}: ${path} does not exist`).toBe(true);
  });

  /** The variables a page's tables document: rows that start with one or more `NAME`s. */
  const tableVariables = (doc: string) =>
    [...readFileSync(join(root, doc), 'utf8').matchAll(/^\| ((?:`[A-Z][A-Z0-9_]+`(?:, )?)+) \|/gm)].flatMap((row) => [...row[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]!));

  it('docs/guide/variables.md indexes exactly the variables the other pages document', () => {
    const index = 'docs/guide/variables.md';
    const documented = new Set(READER_DOCS.filter((doc) => doc.startsWith('docs/guide/') && doc !== index).flatMap(tableVariables));
    expect(documented.size).toBeGreaterThan(20);
    expect(new Set(tableVariables(index))).toEqual(documented);
  });

  it.each(READER_DOCS)('%s: every variable of its tables is read by the code', (doc) => {
    const variables = tableVariables(doc);
    for (const variable of variables) {
      // PROVIDER_<SETTING> is read as `<VENDOR>_<SETTING>`, else `PROVIDER_<SETTING>`: the code names the setting
      const setting = variable.replace(/^PROVIDER_/, '');
      const read = new RegExp(`\\b${variable}\\b`).test(sourceText) || (setting !== variable && sourceText.includes(`'${setting}'`));
      expect(read, `${doc}: ${variable} is read nowhere in ${sources.join(', ')}, serverless.yml`).toBe(true);
    }
  });
});
