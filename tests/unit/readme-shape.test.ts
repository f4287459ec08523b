import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/registry';

/** A newcomer reads the README first: short, with how to run and test it at the top. */
const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n');
const top = (count: number) => lines.slice(0, count).join('\n');

describe('the README', () => {
  it('has at most 250 lines', () => {
    expect(lines.length).toBeLessThanOrEqual(250);
  });

  it('shows npm install, npm start and npm test within its first 40 lines', () => {
    for (const command of ['npm install', 'npm start', 'npm test']) expect(top(40), command).toMatch(new RegExp(`^${command}$`, 'm'));
  });

  it('names the prerequisites, Node.js 20.19+ and Java 17+, in its first lines', () => {
    expect(top(5)).toContain('Node.js 20.19+');
    expect(top(5)).toContain('Java 17+');
  });

  it('points at the deploy guide and draws the layout one folder a line', () => {
    const text = lines.join('\n');
    expect(text).toContain('](docs/guide/deploy.md)');
    const tree = lines.filter((line) => /^(?:│\s+)*[├└]── /.test(line));
    expect(tree.length).toBeGreaterThan(10);
    for (const line of tree) expect(line, line).toMatch(/── [\w./-]+\/\s/);
  });
});
