import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/registry';

const DOCS = ['README.md', 'docs/data-model.md', 'docs/design.md', 'docs/architecture.md', 'docs/consistency.md'];

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
const anchorsOf = (file: string) =>
  new Set(readFileSync(file, 'utf8').split('\n').filter((line) => /^#{1,6}\s/.test(line)).map((line) => slug(line.replace(/^#+\s*/, ''))));

/** Markdown links `[text](target)` outside code blocks. */
const links = (file: string) => {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/i.test(target));
};

describe('the README and docs stand alone in a clone', () => {
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

  it('the README names no path outside the repository', () => {
    expect(readFileSync(join(root, 'README.md'), 'utf8')).not.toMatch(/\.\.\/shared|\(\.\.\//);
  });
});
