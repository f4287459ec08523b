import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort } from './ports';

export interface OfflineServer {
  /** Base URL including the stage, e.g. http://localhost:3000/dev */
  url: string;
  stop: () => Promise<void>;
  process: ChildProcess;
}

export interface OfflineOptions {
  port: number;
  stage: string;
  env: Record<string, string>;
  /** serverless-esbuild work folder, distinct per concurrent server. */
  workFolder?: string;
  /** Where the server's output goes: inherited, or collected (and handed to `onOutput` as it comes). */
  output?: 'inherit' | 'pipe';
  /** Each chunk of the server's output, when collected. */
  onOutput?: (chunk: Buffer) => void;
  readyTimeoutMs?: number;
  /** Called with the process as soon as it is spawned (to stop it during startup). */
  onSpawn?: (child: ChildProcess) => void;
}

const root = resolve(__dirname, '..', '..');
const serverlessBin = resolve(root, 'node_modules', 'serverless', 'bin', 'serverless.js');

const waitUntilListening = async (url: string, child: ChildProcess, timeoutMs: number, log: () => string) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`serverless offline exited with ${child.exitCode}\n${log()}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`serverless offline did not answer on ${url} within ${timeoutMs} ms\n${log()}`);
};

/** Kills the whole process group: serverless spawns workers that outlive a plain kill. */
export const stopGroup = async (child: ChildProcess): Promise<void> => {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      /* already gone */
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
};

/** `serverless offline start` in its own process group, resolved once it answers HTTP. */
export const startOffline = async (options: OfflineOptions): Promise<OfflineServer> => {
  const lambdaPort = process.env.LAMBDA_PORT ? Number(process.env.LAMBDA_PORT) : await freePort();
  const child = spawn(process.execPath, [serverlessBin, 'offline', 'start', '--stage', options.stage], {
    cwd: root,
    detached: true,
    // the IPC channel closes when this process dies, however it dies: offline then exits too
    // (plugins/offline-in-process-reload.js) instead of serving on, orphaned
    stdio: options.output === 'inherit' ? ['inherit', 'inherit', 'inherit', 'ipc'] : ['ignore', 'pipe', 'pipe', 'ipc'],
    env: {
      ...process.env,
      ...options.env,
      PORT: String(options.port),
      LAMBDA_PORT: String(lambdaPort),
      // where functions nudge the queue evaluator (lib/adapters/nudge.ts): this server's Lambda API
      // unless the caller names another (a test of a nudge that fails)
      LAMBDA_ENDPOINT: options.env.LAMBDA_ENDPOINT ?? process.env.LAMBDA_ENDPOINT ?? `http://localhost:${lambdaPort}`,
      ESBUILD_WORK_FOLDER: options.workFolder ?? '.esbuild',
      SLS_TELEMETRY_DISABLED: '1',
      SLS_NOTIFICATIONS_MODE: 'off',
    },
  });
  options.onSpawn?.(child);
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20000);
    options.onOutput?.(chunk);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const url = `http://localhost:${options.port}/${options.stage}`;
  try {
    await waitUntilListening(`${url}/`, child, options.readyTimeoutMs ?? 300_000, () => output);
  } catch (error) {
    await stopGroup(child);
    throw error;
  }
  return { url, process: child, stop: () => stopGroup(child) };
};
