import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { javaMajor, javaProblem } from '../../scripts/local/java';

// The embedded store is DynamoDB Local, a Java program: without Java 17+ `npm start` and
// `npm test` must stop at once with one line naming what is missing and how to install it.
const root = resolve(import.meta.dirname, '..', '..');
const folder = mkdtempSync(join(tmpdir(), 'no-java-'));
const noJava = join(folder, 'empty');
const oldJava = join(folder, 'old');
for (const dir of [noJava, oldJava]) mkdirSync(dir);
writeFileSync(join(oldJava, 'java'), '#!/bin/sh\necho \'openjdk version "11.0.22" 2024-01-16\' >&2\n');
chmodSync(join(oldJava, 'java'), 0o755);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const withPath = (dir: string): NodeJS.ProcessEnv => ({ ...process.env, PATH: dir });

/** Runs a script the way npm runs it, with PATH holding no java (node itself by absolute path). */
const run = (script: string, dir: string, extra: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: root, env: { ...withPath(dir), DATA_DIR: join(folder, 'data'), ...extra }, encoding: 'utf8', timeout: 60_000 });

const expectOneInstallLine = (stderr: string) => {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/apt-get install openjdk-17-jre-headless/);
  expect(lines[0]).toMatch(/brew install openjdk@17/);
  expect(lines[0]).toMatch(/winget install Microsoft\.OpenJDK\.17|choco install openjdk17/);
  expect(stderr).not.toMatch(/\n\s+at /);
};

describe('Java as a prerequisite', () => {
  it('reads the major version of both version styles', () => {
    expect(javaMajor('openjdk version "17.0.15" 2025-04-15')).toBe(17);
    expect(javaMajor('java version "1.8.0_402"')).toBe(8);
    expect(javaMajor('openjdk version "21" 2023-09-19')).toBe(21);
    expect(javaMajor('no version here')).toBeUndefined();
  });

  it('names what is missing and how to install it when PATH has no java, or an old one', () => {
    expect(javaProblem(withPath(noJava))).toMatch(/^Java is missing/);
    expect(javaProblem(withPath(oldJava))).toMatch(/^Java 11 is too old: .* needs Java 17 or later/);
    expect(javaProblem()).toBeUndefined();
  });

  it('stops `npm test` before the build, in one line', () => {
    const answer = run('scripts/prerequisites.ts', noJava);
    expect(answer.status).toBe(1);
    expectOneInstallLine(answer.stderr);
  });

  it('stops `npm start` before anything starts, in one line', () => {
    for (const dir of [noJava, oldJava]) {
      const answer = run('scripts/start.ts', dir, { DEVICE_PROVIDERS: 'simulated' });
      expect(answer.status).toBe(1);
      expectOneInstallLine(answer.stderr);
      expect(answer.stdout).not.toMatch(/API ready/);
    }
  }, 60_000);
});
