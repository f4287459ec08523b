import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../scripts/local/ports';

export const E2E_API_KEY = 'e2e-test-api-key';
export const E2E_ADMIN = { username: 'e2e-admin', password: 'e2e-admin-password-123' };
const root = resolve(__dirname, '..', '..');
const READY = /API ready at (\S+)/;

const stop = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  process.kill(-child.pid, 'SIGTERM');
  const force = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 10_000);
  await exited;
  clearTimeout(force);
};

/**
 * The service exactly as a user runs it: `npm start` (scripts/start.ts) in its own process
 * group, with a private data folder, port, build folder and API key. Nothing the API depends
 * on shares the test runner's event loop. E2E_SERVER_LOGS=1 shows the server's output.
 */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-data-'));
  const child = spawn(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), 'scripts/start.ts'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      DOCS_PORT: String(await freePort()),
      API_KEY: E2E_API_KEY,
      ESBUILD_WORK_FOLDER: '.esbuild-e2e',
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      // cheaper hashes for tests only; the production default is asserted in tests/unit
      PASSWORD_SCRYPT_LOG_N: '14',
      // a still, known demo fleet: e2e counts are reproducible
      DEVICE_PROVIDER: 'simulated',
      SEED_DEVICES: '240',
      SIM_ROOMS: '',
      SIM_SEED: '42',
      SIM_CHURN: '0',
      SYNC_INTERVAL_SECONDS: '0',
      // alarms are evaluated only through POST /alarms/evaluate: e2e runs are deterministic
      EVALUATE_INTERVAL_SECONDS: '0',
    },
  });
  let output = '';
  const url = await new Promise<string>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`npm start did not become ready in 150 s:\n${output}`)), 150_000);
    const read = (chunk: Buffer) => {
      const text = chunk.toString();
      if (process.env.E2E_SERVER_LOGS === '1') process.stderr.write(text);
      output = (output + text).slice(-20_000);
      const match = READY.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        ready(match[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => fail(new Error(`npm start exited with ${code}:\n${output}`)));
  });
  // keep draining so the server never blocks on a full pipe
  child.stdout?.removeAllListeners('data');
  child.stderr?.removeAllListeners('data');
  const drain = (chunk: Buffer) => {
    if (process.env.E2E_SERVER_LOGS === '1') process.stderr.write(chunk);
  };
  child.stdout?.on('data', drain);
  child.stderr?.on('data', drain);

  project.provide('apiUrl', url);
  project.provide('docsUrl', /API docs at (\S+)/.exec(output)?.[1] ?? '');
  project.provide('apiKey', E2E_API_KEY);
  project.provide('admin', E2E_ADMIN);
  return async () => {
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  };
}
