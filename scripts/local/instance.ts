/**
 * A private instance of the whole service exactly as a user runs it: `npm start`
 * (scripts/start.ts) in its own process group, with its own data folder, ports and build
 * folder. Used by the end-to-end tests and the load benchmark, so that nothing the API
 * depends on shares the caller's event loop.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './ports';
import { startMarker, stopMarked } from './processes';

export interface Instance {
  url: string;
  docsUrl: string;
  /** The status board page (served beside the docs page). */
  boardUrl: string;
  /** The instance's embedded store (benchmarks write changes into it directly). */
  storeEndpoint: string;
  /** Everything npm start printed up to its "API ready" line, that line included. */
  startOutput: string;
  stop: () => Promise<void>;
}

const root = resolve(__dirname, '..', '..');
const READY = /API ready at (\S+)/;
// the store's line may come in an earlier chunk than the ready line: caught as it goes by
const STORE = /(?:embedded|external) DynamoDB(?: Local)? at (\S+)/;

export const startInstance = async (options: {
  env: Record<string, string>;
  workFolder: string;
  /** Copy the server's output to stderr (E2E_SERVER_LOGS=1 in tests). */
  echo?: boolean;
  readyTimeoutMs?: number;
}): Promise<Instance> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'instance-data-'));
  // every process of this instance inherits the marker: the stop finds them all, whatever their group
  const marker = startMarker();
  const stop = async () => {
    const { killed } = await stopMarked(child, marker);
    rmSync(dataDir, { recursive: true, force: true });
    if (killed.length) console.warn(`npm start did not stop on SIGINT; killed: ${killed.map((p) => p.command).join('; ')}`);
  };
  // as package.json's "start" runs it
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      // the caller's shell may name a store for its own npm start: an instance uses its own unless told
      DYNAMODB_ENDPOINT: '',
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      DOCS_PORT: String(await freePort()),
      WEBSOCKET_PORT: String(await freePort()),
      WEBEX_FAKE_PORT: String(await freePort()),
      ZOOM_FAKE_PORT: String(await freePort()),
      SERVICENOW_FAKE_PORT: String(await freePort()),
      ESBUILD_WORK_FOLDER: options.workFolder,
      ...options.env,
      ...marker,
    },
  });
  const timeoutMs = options.readyTimeoutMs ?? 360_000;
  let output = '';
  let startOutput = '';
  let storeEndpoint = '';
  const url = await new Promise<string>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`npm start did not become ready in ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const read = (chunk: Buffer) => {
      if (options.echo) process.stderr.write(chunk);
      output = (output + chunk.toString()).slice(-20_000);
      startOutput += chunk.toString();
      storeEndpoint ||= STORE.exec(output)?.[1] ?? '';
      const match = READY.exec(output);
      if (match?.[1]) {
        const line = /^.*API ready at .*$/m.exec(startOutput);
        if (line) startOutput = startOutput.slice(0, line.index + line[0].length);
        clearTimeout(timer);
        ready(match[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => fail(new Error(`npm start exited with ${code}:\n${output}`)));
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  // keep draining so the server never blocks on a full pipe
  for (const stream of [child.stdout, child.stderr]) {
    stream?.removeAllListeners('data');
    stream?.on('data', (chunk: Buffer) => options.echo && process.stderr.write(chunk));
  }
  return {
    url,
    docsUrl: /API docs at (\S+)/.exec(output)?.[1] ?? '',
    boardUrl: /Status board at (\S+)/.exec(output)?.[1] ?? '',
    storeEndpoint,
    startOutput,
    stop,
  };
};

/** The still, known demo fleet the tests and benchmarks run against. */
export const stillFleetEnv: Record<string, string> = {
  DEVICE_PROVIDER: 'simulated',
  SIM_SEED: '42',
  SIM_CHURN: '0',
  SYNC_INTERVAL_SECONDS: '0',
  STATUS_POLL_SECONDS: '0',
  // alarms are evaluated only through POST /alarms/evaluate
  EVALUATE_INTERVAL_SECONDS: '0',
  // no demo alarm rule: tests and benchmarks create their own watchers
  DEMO_WATCHER: '0',
};
