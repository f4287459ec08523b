import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { markedProcesses, startMarker, stopMarked } from '../../scripts/local/processes';

/** A detached shell (its own process group) carrying a fresh marker, as the benchmarks start npm start. */
const startShell = (script: string) => {
  const marker = startMarker();
  const child = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore', env: { ...process.env, ...marker } });
  return { child, marker };
};

const until = async (check: () => boolean) => {
  for (let i = 0; i < 50 && !check(); i++) await new Promise((r) => setTimeout(r, 100));
};

describe('stopping a local start (scripts/local/processes.ts)', () => {
  it('finds every process of a start by its marker, and a Ctrl-C that ends them all is a clean stop', async () => {
    const { child, marker } = startShell('sleep 30; true');
    await until(() => markedProcesses(marker).length === 2);
    expect(markedProcesses(marker).map((p) => p.command)).toEqual(expect.arrayContaining([expect.stringContaining('sleep 30')]));
    const report = await stopMarked(child, marker, 5000);
    expect(report).toEqual({ interrupts: 1, killed: [] });
    expect(markedProcesses(marker)).toEqual([]);
  });

  it('kills and reports what ignores Ctrl-C, even once its parent is gone', async () => {
    // a background job of a non-interactive shell ignores SIGINT; the shell itself ends on it
    const { child, marker } = startShell('sleep 30 & wait');
    await until(() => markedProcesses(marker).length === 2);
    const report = await stopMarked(child, marker, 1500);
    expect(report.interrupts).toBeGreaterThanOrEqual(1);
    expect(report.killed.map((p) => p.command)).toEqual([expect.stringContaining('sleep 30')]);
    expect(markedProcesses(marker)).toEqual([]);
  });
});
