/**
 * `npm start`: the whole service on this machine, no AWS account needed.
 * Embedded DynamoDB Local (persisted under .data/), or the store DYNAMODB_ENDPOINT names; table and local data ensured, then
 * `serverless offline` on http://localhost:${PORT:-3000}/dev. Ctrl-C stops everything.
 * What a person needs is printed before "API ready"; serverless offline's own output (its banner
 * and route table, a few hundred lines) goes to <data>/offline.log, and to the terminal once the
 * API is ready, or from the start with `npm start -- --verbose`.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { externalEndpoint, externalStoreEnv, localAccessMode, LOCAL_ADMIN_PASSWORD, LOCAL_ADMIN_USERNAME, LOCAL_API_KEY, LOCAL_STAGE, localPageOrigins, localTableName, storeEnv } from './local/env';
import { startDocsServer } from './local/docs-server';
import type { ChildProcess } from 'node:child_process';
import { startOffline, stopGroup } from './local/offline';
import { freePort } from './local/ports';
import { secondsSinceCommand } from './local/processes';

// DATA_DIR lets the end-to-end tests run a whole private instance in a temporary folder.
const dataRoot = resolve(process.env.DATA_DIR ?? resolve(__dirname, '..', '.data'));
const dataDir = resolve(dataRoot, 'dynamodb');

interface TokenKeys {
  JWT_PRIVATE_KEY: string;
  JWT_PUBLIC_KEY: string;
}

/**
 * The local Ed25519 token key pair (PEMs): generated once into <data>/jwt-key.json, kept
 * beside the data so tokens survive restarts. JWT_PRIVATE_KEY / JWT_PUBLIC_KEY from the
 * environment win; a private key alone brings its public key with it.
 */
const localTokenKeys = async (): Promise<TokenKeys> => {
  const { JWT_PRIVATE_KEY: privatePem, JWT_PUBLIC_KEY: publicPem } = process.env;
  if (privatePem) {
    const { keyInput } = await import('../lib/access/tokens');
    const derived = createPublicKey(createPrivateKey(keyInput(privatePem))).export({ type: 'spki', format: 'pem' }).toString();
    return { JWT_PRIVATE_KEY: privatePem, JWT_PUBLIC_KEY: publicPem ?? derived };
  }
  const file = resolve(dataRoot, 'jwt-key.json');
  if (!existsSync(file)) {
    const pair = generateKeyPairSync('ed25519', {
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const keys: TokenKeys = { JWT_PRIVATE_KEY: pair.privateKey, JWT_PUBLIC_KEY: pair.publicKey };
    writeFileSync(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  }
  return JSON.parse(readFileSync(file, 'utf8')) as TokenKeys;
};

/** The key that seals pagination cursors (lib/store/cursor.ts): made once per data folder, CURSOR_SECRET wins. */
const localCursorSecret = (): string => {
  if (process.env.CURSOR_SECRET) return process.env.CURSOR_SECRET;
  const file = resolve(dataRoot, 'cursor-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
};

/**
 * Runs `task` every `seconds` (none when 0), never two at once; a failure is logged and the
 * next tick tries again. Stands in locally for the scheduled functions of AWS.
 */
const every = (seconds: number, label: string, task: () => Promise<string | undefined>): NodeJS.Timeout | undefined => {
  if (!(seconds > 0)) return undefined;
  let running = false;
  return setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const line = await task();
      if (line) console.log(`${label}: ${line}`);
    } catch (error) {
      console.error(`${label} failed:`, error instanceof Error ? error.message : error);
    } finally {
      running = false;
    }
  }, seconds * 1000);
};

/** The providers of the local sync: built once, so that their tokens are cached like a warm function's. */
let providers: import('../lib/inventory/provider').NamedProvider[] | undefined;

/** The scheduled device sync, every SYNC_INTERVAL_SECONDS (default 60; 0 = off). */
const startPeriodicSync = () =>
  every(Number(process.env.SYNC_INTERVAL_SECONDS ?? 60), 'device sync', async () => {
    const { providersFromEnv } = await import('../lib/inventory/provider');
    const { SYNC_LEASE_WAIT_MS, syncAlone } = await import('../lib/inventory/syncLease');
    const { runEvaluation } = await import('../lib/alarms/engine/run');
    const { mailerFromEnv } = await import('../lib/adapters/mail');
    // the sync's lease: another instance syncing the same store (DYNAMODB_ENDPOINT) goes first; a status poll holding it is waited for
    const leased = await syncAlone((providers ??= providersFromEnv()), { waitMs: SYNC_LEASE_WAIT_MS });
    if (!leased.ran) return undefined;
    const { result } = leased;
    const failed = result.providers.filter((p) => !p.ok).map((p) => `${p.name} failed (${p.error}); its devices stay as stored`);
    if (failed.length) console.log(`device sync: ${failed.join('; ')}`);
    // the alarms of the devices it changed follow in the same run (queued for the evaluator when it is busy)
    const outcome = await runEvaluation({ mailer: mailerFromEnv(), mode: 'queue' });
    const alarms = outcome.ran && (outcome.summary.raised || outcome.summary.cleared) ? `; ${outcome.summary.raised} raised, ${outcome.summary.cleared} cleared` : '';
    return result.upserted || result.removed ? `${result.upserted} written, ${result.removed} removed${alarms}` : undefined;
  });

/**
 * The scheduled status poll, every STATUS_POLL_SECONDS (default 60; 0 = off): what each provider
 * says is not connected, against what is stored, under the sync's lease (lib/inventory/statusPoll.ts);
 * the alarms of the devices it changed follow in the same run, as after a sync.
 */
const startPeriodicStatusPoll = () =>
  every(Number(process.env.STATUS_POLL_SECONDS ?? 60), 'status poll', async () => {
    const { providersFromEnv } = await import('../lib/inventory/provider');
    const { pollAlone } = await import('../lib/inventory/statusPoll');
    const { runEvaluation } = await import('../lib/alarms/engine/run');
    const { mailerFromEnv } = await import('../lib/adapters/mail');
    const polled = await pollAlone((providers ??= providersFromEnv()));
    if (!polled.ran) return undefined;
    const failed = polled.result.providers.filter((p) => !p.ok).map((p) => `${p.name} failed (${p.error}); its devices stay as stored`);
    if (failed.length) console.log(`status poll: ${failed.join('; ')}`);
    const applied = polled.result.providers.reduce((sum, p) => sum + p.applied, 0);
    if (applied === 0) return undefined;
    const outcome = await runEvaluation({ mailer: mailerFromEnv(), mode: 'queue' });
    const alarms = outcome.ran && (outcome.summary.raised || outcome.summary.cleared) ? `; ${outcome.summary.raised} raised, ${outcome.summary.cleared} cleared` : '';
    return `${applied} connectivity changes written${alarms}`;
  });

/**
 * The scheduled alarm evaluator: ticks every EVALUATE_INTERVAL_SECONDS (default 30; 0 = off)
 * and evaluates when the stored `intervalDeviceWatchers` (default 60 s) has passed.
 */
const startPeriodicEvaluation = () => {
  const seconds = Number(process.env.EVALUATE_INTERVAL_SECONDS ?? 30);
  return every(seconds, 'alarm evaluation', async () => {
    const { runEvaluation } = await import('../lib/alarms/engine/run');
    const { mailerFromEnv } = await import('../lib/adapters/mail');
    const outcome = await runEvaluation({ mailer: mailerFromEnv(), mode: 'scheduled', tickSeconds: seconds });
    if (!outcome.ran) return undefined;
    const { raised, cleared, mailed } = outcome.summary;
    return raised || cleared || mailed ? `${raised} raised, ${cleared} cleared, ${mailed} mailed` : undefined;
  });
};

/** The scheduled fleet reports, as the schedule would run them in AWS: every REPORT_INTERVAL_SECONDS (default 60; 0 = off), each period's report once. */
const startPeriodicReports = () =>
  every(Number(process.env.REPORT_INTERVAL_SECONDS ?? 60), 'fleet reports', async () => {
    const { runReports } = await import('../lib/reports/run');
    const { mailerFromEnv } = await import('../lib/adapters/mail');
    const summary = await runReports({ mailer: mailerFromEnv(), deadline: Date.now() + 120_000 });
    return summary.made || summary.failed ? `${summary.made} made (${summary.deliveries} deliveries), ${summary.failed} failed` : undefined;
  });

/** `npm start -- --verbose`: serverless offline's whole output in the terminal too; any other argument stops the start naming it. */
const startOptions = (args: readonly string[]) => {
  const unknown = args.filter((arg) => arg !== '--verbose');
  if (unknown.length) throw new Error(`npm start takes only --verbose (got ${unknown.join(' ')})`);
  return { verbose: args.includes('--verbose') };
};

/**
 * Until "ready", the SDK's warning for each store request slower than its 3 s timeout (one line
 * per request: dozens while a busy machine syncs the demo fleet) is counted instead of printed;
 * the count is one line before "ready". Every other warning passes.
 */
const SLOW_STORE_WARNING = /^@smithy\/node-http-handler - \[WARN\] a request has exceeded the configured (\d+) ms requestTimeout/;
const countSlowStoreWarnings = () => {
  const warn = console.warn;
  let count = 0;
  let timeoutMs = 0;
  console.warn = (...args: unknown[]) => {
    const slow = typeof args[0] === 'string' ? SLOW_STORE_WARNING.exec(args[0]) : null;
    if (!slow) return warn(...args);
    count++;
    timeoutMs = Number(slow[1]);
  };
  return () => {
    console.warn = warn;
    return count ? `store: ${count} requests took over ${timeoutMs / 1000} s during the start (a busy machine); each went on to its answer` : undefined;
  };
};

/** A path as a person types it from here: relative when under the working folder. */
const shown = (path: string) => {
  const near = relative(process.cwd(), path);
  return near && !near.startsWith('..') ? near : path;
};

const main = async () => {
  const { verbose } = startOptions(process.argv.slice(2));
  const port = Number(process.env.PORT ?? 3000);
  const socketPort = Number(process.env.WEBSOCKET_PORT ?? port + 3);
  const apiKey = process.env.API_KEY ?? LOCAL_API_KEY;
  const docsPort = Number(process.env.DOCS_PORT ?? port + 1);
  mkdirSync(dataDir, { recursive: true });

  // DYNAMODB_ENDPOINT: any DynamoDB endpoint (DynamoDB Local, LocalStack, a proxy, AWS) instead of the embedded store
  const external = externalEndpoint(process.env.DYNAMODB_ENDPOINT);
  // the embedded store is DynamoDB Local, a Java program: without Java 17+ stop now, in one line
  const javaMissing = external ? undefined : (await import('./local/java')).javaProblem();
  if (javaMissing) {
    console.error(javaMissing);
    process.exit(1);
  }
  const storePort = external ? 0 : process.env.DYNAMODB_PORT ? Number(process.env.DYNAMODB_PORT) : await freePort();
  // the demo fleet behind local Webex and Zoom fakes, synced by the real adapters, unless a provider is configured
  // their ports follow PORT like the docs page's, so the guide's examples can name them (WEBEX_FAKE_PORT, ZOOM_FAKE_PORT)
  const fakePorts = { WEBEX_FAKE_PORT: process.env.WEBEX_FAKE_PORT ?? String(port + 4), ZOOM_FAKE_PORT: process.env.ZOOM_FAKE_PORT ?? String(port + 5) };
  const fakes = process.env.DEVICE_PROVIDERS || process.env.DEVICE_PROVIDER ? undefined : await (await import('./local/fakes')).startDemoFakes({ ...process.env, ...fakePorts });
  // a local ServiceNow instance for ServiceNow channels (docs/guide/notifications.md), its port following PORT as well
  const serviceNowPort = (await import('./local/fakes')).fakePort({ SERVICENOW_FAKE_PORT: process.env.SERVICENOW_FAKE_PORT ?? String(port + 7) }, 'SERVICENOW_FAKE_PORT');
  const serviceNow = await (await import('./local/fakes/servicenow')).startServiceNowFake({ ...(serviceNowPort === undefined ? {} : { port: serviceNowPort }) }).catch(async (error: unknown) => {
    await fakes?.close();
    throw error;
  });
  const env = {
    ...fakes?.env,
    ...(external ? externalStoreEnv(external) : storeEnv(`http://127.0.0.1:${storePort}`)),
    TABLE_NAME: process.env.TABLE_NAME || localTableName(LOCAL_STAGE),
    API_KEY: apiKey,
    // who acts (DESIGN §5): locally the API key alone acts (`key`) unless ACCESS_MODE=user
    ACCESS_MODE: localAccessMode(process.env.ACCESS_MODE),
    ...(await localTokenKeys()),
    CURSOR_SECRET: localCursorSecret(),
    // browsers: only the pages npm start serves may call the API, unless CORS_ORIGINS says otherwise
    CORS_ORIGINS: process.env.CORS_ORIGINS ?? localPageOrigins([docsPort]),
    ADMIN_USERNAME: process.env.ADMIN_USERNAME ?? LOCAL_ADMIN_USERNAME,
    ADMIN_PASSWORD: process.env.ADMIN_PASSWORD ?? LOCAL_ADMIN_PASSWORD,
    // alarm mails land in the local outbox (GET /alarms/outbox) unless told otherwise
    MAILER: process.env.MAILER ?? 'outbox',
    // webhooks may go to a receiver on this machine (http on loopback); never set in AWS
    ALLOW_LOCAL_WEBHOOKS: process.env.ALLOW_LOCAL_WEBHOOKS ?? 'true',
    // metrics are CloudWatch EMF lines: noise in a local terminal unless asked for
    POWERTOOLS_METRICS_DISABLED: process.env.POWERTOOLS_METRICS_DISABLED ?? 'true',
    // the local WebSocket API of serverless offline: browsers open it, pushes post to it
    WEBSOCKET_PORT: String(socketPort),
    LIVE_WS_URL: `ws://localhost:${socketPort}`,
    LIVE_PUSH_ENDPOINT: `http://localhost:${socketPort}`,
  };
  Object.assign(process.env, env);

  // serverless offline (its own process, the longest step) starts first; meanwhile this
  // process builds the validators (when a source changed) and readies the store, table, first
  // admin and demo fleet.
  // Handlers load on first request, which comes only after all of that.
  // serverless offline runs in its own process group: a stop during startup must end it too
  let spawned: ChildProcess | undefined;
  // One listener per signal for the whole run, pointing at the stop of the moment. Swapping
  // listeners instead loses a signal that arrives just before the swap: Node hands it to the
  // listener that was removed (a Ctrl-C right after "API ready" was ignored).
  let onSignal = (signal: NodeJS.Signals) => {
    console.log(`${signal}: stopping`);
    void (spawned ? stopGroup(spawned) : Promise.resolve()).finally(() => process.exit(0));
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, (received: NodeJS.Signals) => onSignal(received));
  // serverless offline's output: always to the log; to the terminal once ready (from the start when verbose)
  const logFile = resolve(dataRoot, 'offline.log');
  const log = createWriteStream(logFile);
  let echo = verbose;
  const starting = startOffline({
    port,
    stage: LOCAL_STAGE,
    env,
    output: 'pipe',
    onOutput: (chunk) => {
      log.write(chunk);
      if (echo) process.stdout.write(chunk);
    },
    workFolder: process.env.ESBUILD_WORK_FOLDER,
    onSpawn: (child) => {
      spawned = child;
    },
  });
  const slowStoreSummary = countSlowStoreWarnings();
  const preparing = (async () => {
    const { buildOnce } = await import('./local/build-once');
    if (await buildOnce()) console.log('validators and route bindings built (generated/)');
    const { startLocalStore } = await import('./local/dynamo');
    const store = external ? { endpoint: external, close: async () => undefined } : await startLocalStore({ path: dataDir, port: storePort });
    const { bootstrap } = await import('./local/bootstrap');
    await bootstrap((line) => console.log(line));
    // a previous run killed mid-evaluation may have left room statuses behind the open alarms
    const { repairAfterRestart } = await import('../lib/alarms/engine/repair');
    const repaired = await repairAfterRestart();
    if (!repaired) console.log('room statuses: not reconciled (the alarm evaluator lease is still held)');
    else if (repaired.devicesFixed || repaired.roomsRecomputed) {
      console.log(`room statuses reconciled with open alarms: ${repaired.devicesFixed} devices, ${repaired.roomsRecomputed} rooms`);
    }
    return store;
  })();
  const [started, prepared] = await Promise.allSettled([starting, preparing]);
  if (started.status === 'fulfilled' && prepared.status === 'rejected') await started.value.stop();
  if (prepared.status === 'fulfilled' && started.status === 'rejected') await prepared.value.close();
  if (started.status === 'rejected') throw started.reason;
  if (prepared.status === 'rejected') throw prepared.reason;
  const offline = started.value;
  const store = prepared.value;
  // One real request loads the modules every handler shares (middy, the DynamoDB client, the
  // logger), so "ready" means the API answers, and the first caller does not pay for it.
  await fetch(`${offline.url}/intervals`, { headers: { 'x-api-key': apiKey } }).catch(() => undefined);
  const { boardAssets, configFile } = await import('./local/board');
  const board = { assets: await boardAssets(), config: configFile({ apiUrl: offline.url, apiKey }) };
  const docs = await startDocsServer(docsPort, offline.url, board);
  // the Zoom fake pushes its devices' changes to our receiver from now on, signed with the local secret token
  if (fakes) fakes.zoom.setWebhook({ url: `${offline.url}/vendors/zoom/events`, secret: fakes.env.ZOOM_WEBHOOK_SECRET_TOKEN ?? '' });
  const shownKey = apiKey === LOCAL_API_KEY ? apiKey : '<your API_KEY>';
  // what is where, in a few lines a person reads at once (tests read these lines)
  console.log(external ? `\nstore: external DynamoDB at ${store.endpoint} (DYNAMODB_ENDPOINT; table ${env.TABLE_NAME})` : `\nstore: embedded DynamoDB Local at ${store.endpoint} (data in ${shown(dataDir)})`);
  console.log(`API docs at ${docs.url}`);
  console.log(`Status board at ${docs.url.replace(/\/docs$/, '/board/')}  (live at ${env.LIVE_WS_URL})`);
  console.log(`webhook receiver at ${docs.url.replace(/\/docs$/, '/hooks/<name>')}  (what it received: GET ${docs.url.replace(/\/docs$/, '/hooks')})`);
  if (fakes) console.log(`vendor fakes: Webex at ${fakes.webex.url}/v1, Zoom at ${fakes.zoom.url}/v2, pushing to POST /vendors/zoom/events  (faults and device changes: docs/guide/providers.md)`);
  console.log(`ServiceNow fake at ${serviceNow.url}  (for servicenow channels: user fake-servicenow-user, password fake-servicenow-password; what it received: GET ${serviceNow.url}/_fake/events)`);
  // the documented local defaults only: a password of the user's own is never printed
  if (env.ADMIN_USERNAME === LOCAL_ADMIN_USERNAME && env.ADMIN_PASSWORD === LOCAL_ADMIN_PASSWORD) {
    console.log(`first admin (docs/guide/accounts.md): ${LOCAL_ADMIN_USERNAME} / ${LOCAL_ADMIN_PASSWORD}`);
  }
  console.log(
    env.ACCESS_MODE === 'key'
      ? 'access mode: key (the API key alone acts with every permission but admin; ACCESS_MODE=user asks for bearer tokens)'
      : 'access mode: user (every route but sign-in and service token exchange needs a bearer token: POST /api/authService/auth/signin)',
  );
  console.log(verbose ? `serverless offline's output: above, and in ${shown(logFile)}` : `serverless offline's output (route table, requests): ${shown(logFile)}; npm start -- --verbose prints it here`);
  const slow = slowStoreSummary();
  if (slow) console.log(slow);
  console.log(`API ready at ${offline.url}  (header x-api-key: ${shownKey}) in ${secondsSinceCommand().toFixed(1)} s since npm start`);
  console.log(`try: curl -H 'x-api-key: ${apiKey === LOCAL_API_KEY ? apiKey : '$API_KEY'}' ${offline.url}/intervals   (Ctrl-C stops everything)\n`);
  // from here on, requests and handler logs as they come
  echo = true;

  // the local sync and evaluator push what they store to live dashboards, like the functions
  const [{ enableLivePush }, { connectionsFromEnv }] = await Promise.all([import('../lib/live/push'), import('../lib/adapters/connections')]);
  enableLivePush(connectionsFromEnv());
  const syncTimer = startPeriodicSync();
  const pollTimer = startPeriodicStatusPoll();
  const evaluateTimer = startPeriodicEvaluation();
  const reportTimer = startPeriodicReports();
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (syncTimer) clearInterval(syncTimer);
    if (pollTimer) clearInterval(pollTimer);
    if (evaluateTimer) clearInterval(evaluateTimer);
    if (reportTimer) clearInterval(reportTimer);
    // an open browser tab or a client's keep-alive socket must not hold the stop up
    setTimeout(() => process.exit(code), 5000).unref();
    await Promise.allSettled([docs.close(), offline.stop(), store.close(), fakes?.close(), serviceNow.close()]);
    process.exit(code);
  };
  onSignal = (signal) => {
    if (!stopping) console.log(`${signal}: stopping`);
    void stop(0);
  };
  offline.process.once('exit', (code) => {
    if (!stopping) {
      console.error(`serverless offline exited (${code}); stopping`);
      void stop(1);
    }
  });
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
