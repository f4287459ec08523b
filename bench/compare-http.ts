/**
 * `npm run compare -- <base-ref> [<other-ref>]`: the same scripted HTTP sequence against two
 * versions of the service, side by side, and every answer compared. Meant for restructurings
 * that must change no behaviour: a difference that is not noise fails the run (exit 1).
 *
 * Each ref (other-ref defaults to HEAD) is checked out into a temporary git worktree, its
 * node_modules a link to this checkout's, built (`npm run build`) and started as `npm start`
 * starts it, on ports and a DynamoDB Local of its own, with the same seeded simulated fleet (a
 * still one: SIM_CHURN=0) and the local timers off, so nothing moves under the comparison. Then
 * bench/compare/sequence.ts is sent to both, one step at a time, and the answers (status, the
 * headers that matter, body) are compared, forgiving only noise (bench/compare/diff.ts). Paged
 * lists are followed through their cursors and compared as sets.
 *
 * Output: bench/results/compare-http.md and .json (COMPARE_RESULT=<name>: bench/results/<name>.*,
 * to keep a run beside another). COMPARE_URLS=<base-url>,<other-url> compares
 * two instances already running (API key COMPARE_API_KEY) instead of starting any.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../scripts/local/ports';
import { startMarker, stopMarked } from '../scripts/local/processes';
import { canonical, differences, headerDifferences, IdMap, textDifferences, type Difference, type IdPair } from './compare/diff';
import { sequence, type Answer, type Request, type Step, type Vars } from './compare/sequence';
import { root, writeResult } from './lib';

const KEY = process.env.COMPARE_API_KEY ?? 'compare-http-key';
const READY = /API ready at (\S+)/;
const START_TIMEOUT_MS = 300_000;
const MAX_PAGES = 200;
const SEED_DEVICES = process.env.COMPARE_SEED_DEVICES ?? '200';
const RESULT = process.env.COMPARE_RESULT ?? 'compare-http';

/** What `npm start` reads from the shell: cleared, so that the caller's settings reach neither side. */
const SERVICE_VARIABLES = [
  'ACCESS_MODE', 'ADMIN_PASSWORD', 'ADMIN_USERNAME', 'ALLOW_LOCAL_WEBHOOKS', 'API_KEY', 'CORS_ORIGINS', 'CURSOR_SECRET', 'DATA_DIR', 'DEMO_WATCHER',
  'DEVICE_PROVIDER', 'DEVICE_PROVIDERS', 'DEVICE_PROVIDER_TOKEN', 'DEVICE_PROVIDER_URL', 'DOCS_PORT', 'DYNAMODB_ENDPOINT', 'DYNAMODB_PORT',
  'ESBUILD_WORK_FOLDER', 'EVALUATE_INTERVAL_SECONDS', 'FAKE_429_RATE', 'INDEX_READ_RCU_PER_SECOND', 'JWT_PRIVATE_KEY', 'JWT_PUBLIC_KEY', 'LAMBDA_PORT',
  'LOGIN_MAX_FAILURES', 'LOGIN_WINDOW_SECONDS', 'MAILER', 'NOTIFY_MAX_PER_RUN', 'NOTIFY_RETRY_BASE_SECONDS', 'PASSWORD_SCRYPT_LOG_N', 'PORT',
  'PROVIDER_BACKOFF_MS', 'PROVIDER_MAX_WAIT_SECONDS', 'PROVIDER_REQUEST_BUDGET', 'PROVIDER_STALE_MINUTES', 'PROVIDER_SYNC_WAIT_SECONDS', 'PROVIDER_TIMEOUT_MS',
  'REPORT_INTERVAL_SECONDS', 'SEED_DEVICES', 'SIM_CHURN', 'SIM_ROOMS', 'SIM_SEED', 'SYNC_BUCKETS', 'SYNC_FULL_SECONDS', 'SYNC_INTERVAL_SECONDS',
  'SYNC_MAX_REMOVAL_PERCENT', 'TABLE_NAME', 'WEBEX_API_URL', 'WEBEX_FAKE_PORT', 'WEBEX_PAGE_SIZE', 'WEBEX_REGION_MAP', 'WEBHOOK_PORTS', 'WEBSOCKET_PORT',
  'ZOOM_API_URL', 'ZOOM_CONCURRENCY', 'ZOOM_FAKE_PORT', 'ZOOM_LOCATION_LEVEL', 'ZOOM_OAUTH_URL', 'ZOOM_PAGE_SIZE', 'ZOOM_REGION_LEVEL', 'ZOOM_REGION_MAP',
  'LOCAL_START_ID', 'IS_OFFLINE',
];

/** Every port handed to a start of this run. */
const taken = new Set<number>();

/** The stops of every start made so far: run at the end, on a failure and on Ctrl-C. */
const running: (() => Promise<void>)[] = [];

interface Side {
  name: 'base' | 'other';
  ref: string;
  commit: string;
  subject: string;
  dir: string;
  url: string;
  stop: () => Promise<void>;
}

const git = (args: string[], cwd = root) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

const run = (command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) =>
  new Promise<void>((done, fail) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-8000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`${command} ${args.join(' ')} in ${cwd} exited ${code}\n${output}`))));
  });

/** One version: checked out, built, started; resolved once it printed its ready line. */
const startSide = async (name: Side['name'], ref: string, workRoot: string, shared: Record<string, string>): Promise<Side> => {
  const commit = git(['rev-parse', '--verify', `${ref}^{commit}`]);
  const subject = git(['log', '-1', '--format=%s', commit]);
  const dir = join(workRoot, name);
  git(['worktree', 'add', '--detach', dir, commit]);
  symlinkSync(realpathSync(join(root, 'node_modules')), join(dir, 'node_modules'), 'dir');
  console.log(`${name}: ${ref} = ${commit.slice(0, 10)} (${subject.slice(0, 70)}), building`);
  await run('npm', ['run', '--silent', 'build'], dir);
  const ports: Record<string, string> = {};
  for (const variable of ['PORT', 'DOCS_PORT', 'WEBSOCKET_PORT', 'DYNAMODB_PORT', 'LAMBDA_PORT', 'WEBEX_FAKE_PORT', 'ZOOM_FAKE_PORT']) {
    // a port free a moment ago may be handed out twice: never one this run already gave to a process
    let port = await freePort();
    while (taken.has(port)) port = await freePort();
    taken.add(port);
    ports[variable] = String(port);
  }
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const variable of SERVICE_VARIABLES) delete env[variable];
  const marker = startMarker('COMPARE_START_ID');
  Object.assign(env, ports, shared, marker, {
    DATA_DIR: join(workRoot, `${name}-data`),
    API_KEY: KEY,
    ESBUILD_WORK_FOLDER: '.esbuild-compare',
    // a still fleet and no local timers: nothing changes but what the sequence does
    SEED_DEVICES,
    SIM_SEED: '42',
    SIM_CHURN: '0',
    SYNC_INTERVAL_SECONDS: '0',
    EVALUATE_INTERVAL_SECONDS: '0',
    REPORT_INTERVAL_SECONDS: '0',
  });
  const child: ChildProcess = spawn('npm', ['start', '--silent'], { cwd: dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const stop = async () => {
    await stopMarked(child, marker).catch((error: unknown) => console.error(`${name}: ${error instanceof Error ? error.message : error}`));
  };
  // from now on a stop of the comparison (its end, a failure, Ctrl-C) stops this start too
  running.push(stop);
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`${name}: not ready within ${START_TIMEOUT_MS / 1000} s\n${output.slice(-4000)}`)), START_TIMEOUT_MS);
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-40_000);
      const match = READY.exec(output);
      if (match) {
        clearTimeout(timer);
        done(match[1]!);
      }
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`${name}: npm start exited ${code}\n${output.slice(-4000)}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  // another program may have taken the API port between its choice and the start (then the
  // start's own readiness check met that program): the first answer must be this service's
  const probe = await fetch(`${url}/intervals`, { headers: { 'x-api-key': KEY }, signal: AbortSignal.timeout(60_000) }).catch(() => undefined);
  const probeType = probe?.headers.get('content-type') ?? '';
  const probeBody = probe ? await probe.text() : '';
  if (probe?.status !== 200 || !probeType.startsWith('application/json') || !probeBody.startsWith('[')) {
    await stop();
    throw new Error(`${name}: ${url}/intervals answered ${probe?.status ?? 'nothing'} (${probeType}): not this service (its port taken by another program?); run again\n${output.slice(-4000)}`);
  }
  console.log(`${name}: ready at ${url}`);
  return { name, ref, commit, subject, dir, url, stop };
};

const headersOf = (request: Request, v: Vars): Record<string, string> => {
  const headers: Record<string, string> = {};
  const auth = request.auth ?? 'key';
  if (auth === 'wrong-key') headers['x-api-key'] = 'not-the-key';
  else if (auth !== 'none') headers['x-api-key'] = KEY;
  if (auth === 'garbage-token') headers.authorization = 'Bearer garbage.garbage.garbage';
  const token = { admin: v.adminToken, viewer: v.viewerToken, operator: v.operatorToken, service: v.serviceToken }[auth as string];
  if (['admin', 'viewer', 'operator', 'service'].includes(auth)) headers.authorization = `Bearer ${token ?? 'missing-token'}`;
  if (request.body !== undefined || request.raw !== undefined) headers['content-type'] = 'application/json';
  return { ...headers, ...request.headers };
};

const send = async (base: string, request: Request, v: Vars): Promise<Answer> => {
  const response = await fetch(`${base}${request.path}`, {
    method: request.method,
    headers: headersOf(request, v),
    body: request.raw ?? (request.body === undefined ? undefined : JSON.stringify(request.body)),
    redirect: 'manual',
    signal: AbortSignal.timeout(120_000),
  }).catch((error: unknown) => ({ error }));
  if ('error' in response) return { status: 0, headers: new Headers(), text: `no answer: ${response.error instanceof Error ? response.error.message : String(response.error)}` };
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
};

const nextCursorOf = (answer: Answer): string | undefined => {
  const fromHeader = answer.headers.get('next-cursor');
  if (fromHeader) return fromHeader;
  const body = answer.json as { nextCursor?: unknown } | undefined;
  return body && typeof body === 'object' && typeof body.nextCursor === 'string' && body.nextCursor ? body.nextCursor : undefined;
};

const withCursor = (path: string, cursor: string) => {
  const [route, query = ''] = path.split('?');
  const params = new URLSearchParams(query);
  params.set('cursor', cursor);
  return `${route}?${params}`;
};

/** The items of one page: JSON `items`, or CSV rows without their header row. */
const nextItems = (a: Answer): unknown[] | undefined => {
  if (a.json && typeof a.json === 'object' && Array.isArray((a.json as { items?: unknown }).items)) return (a.json as { items: unknown[] }).items;
  if (a.json === undefined && (a.headers.get('content-type') ?? '').includes('csv')) return a.text.split(/\r?\n/).slice(1).filter(Boolean);
  return undefined;
};

/** Every page of a paged list: the answers, and the items (JSON items, or CSV rows without their header) of all pages. */
const allPages = async (base: string, request: Request, v: Vars) => {
  const answers = [await send(base, request, v)];
  let cursor = nextCursorOf(answers[0]!);
  while (cursor && answers.length < MAX_PAGES && answers.at(-1)!.status < 300) {
    const answer = await send(base, { ...request, path: withCursor(request.path, cursor) }, v);
    answers.push(answer);
    cursor = nextCursorOf(answer);
  }
  return { answers, items: answers.flatMap((a) => nextItems(a) ?? []) };
};

interface Pair {
  step: number;
  label: string;
  method: string;
  path: string;
  status: [number, number];
  pages?: [number, number];
  differences: Difference[];
  /** both first answers' bodies (their first 4,000 characters), kept only when they differ */
  answers?: [string, string];
}

const compareAnswers = (a: Answer, b: Answer, ids: IdMap, paged = false): Difference[] => {
  const found: Difference[] = [];
  const pairs: IdPair[] = [];
  if (a.status !== b.status) found.push({ at: 'status', base: a.status, other: b.status });
  found.push(...headerDifferences(a.headers, b.headers));
  const pageItems = paged && a.status < 300 && b.status < 300;
  if (a.json !== undefined && b.json !== undefined) {
    // a paged answer's cursor is compared by following it, its items over all pages
    const strip = (j: unknown) => {
      if (!j || typeof j !== 'object' || Array.isArray(j)) return j;
      const copy: Record<string, unknown> = { ...(j as Record<string, unknown>) };
      if ('nextCursor' in copy) copy.nextCursor = copy.nextCursor ? '<cursor>' : null;
      if (pageItems && Array.isArray(copy.items)) copy.items = `<${copy.items.length} items>`;
      return copy;
    };
    found.push(...differences(strip(a.json), strip(b.json), '$', '', pairs));
    found.push(...ids.check(pairs));
  } else if (pageItems && nextItems(a) && nextItems(b)) {
    // CSV pages: the header row here, the rows over all pages
    found.push(...textDifferences(a.text.split(/\r?\n/)[0]!, b.text.split(/\r?\n/)[0]!, '$csv header'));
  } else found.push(...textDifferences(a.text, b.text));
  return found;
};

/** The operation of docs/openapi.json a request reaches (a literal path wins over a template). */
const operationMatcher = () => {
  const spec = JSON.parse(require('node:fs').readFileSync(join(root, 'docs', 'openapi.json'), 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> };
  const operations = Object.entries(spec.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({
        id: op.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        params: (path.match(/\{/g) ?? []).length,
        pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      })),
  );
  const match = (method: string, path: string) =>
    operations.filter((op) => op.method === method && op.pattern.test(path.split('?')[0]!)).sort((x, y) => x.params - y.params)[0];
  return { operations, match };
};

let cleaning: Promise<void> | undefined;
/** Stops every start and removes the worktrees and data folders (once, whoever asks first). */
const cleanUp = (workRoot: string): Promise<void> =>
  (cleaning ??= (async () => {
    for (const stop of running.reverse()) await stop();
    for (const name of ['base', 'other']) {
      const dir = join(workRoot, name);
      if (!existsSync(dir)) continue;
      try {
        git(['worktree', 'remove', '--force', dir]);
      } catch (error) {
        console.error(`worktree ${dir} not removed: ${error instanceof Error ? error.message : error}`);
      }
    }
    rmSync(workRoot, { recursive: true, force: true });
    try {
      git(['worktree', 'prune']);
    } catch {
      /* nothing to prune */
    }
  })());

const main = async () => {
  const [baseRef, otherRef = 'HEAD'] = process.argv.slice(2).filter((a) => a !== '--');
  const urls = process.env.COMPARE_URLS?.split(',');
  if (!baseRef && !urls) {
    console.error('usage: npm run compare -- <base-ref> [<other-ref>]   (other-ref defaults to HEAD)');
    process.exit(2);
  }
  const began = Date.now();
  const workRoot = mkdtempSync(join(tmpdir(), 'compare-http-'));
  const sides: Side[] = [];
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`${signal}: stopping both versions and removing their worktrees`);
      void cleanUp(workRoot).finally(() => process.exit(130));
    });
  }
  let exitCode = 0;
  try {
    if (urls) {
      for (const [i, url] of urls.entries()) sides.push({ name: i ? 'other' : 'base', ref: url, commit: '', subject: 'running instance', dir: '', url, stop: async () => undefined });
    } else {
      // the same token keys and cursor secret on both sides: tokens and cursors differ only by what they carry
      const pair = generateKeyPairSync('ed25519', { privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
      const shared = { JWT_PRIVATE_KEY: pair.privateKey, JWT_PUBLIC_KEY: pair.publicKey, CURSOR_SECRET: randomBytes(32).toString('base64url') };
      // one after the other: two builds and two JVMs starting at once only slow each other down
      sides.push(await startSide('base', baseRef!, workRoot, shared));
      sides.push(await startSide('other', otherRef, workRoot, shared));
    }
    const [base, other] = sides as [Side, Side];
    const steps: Step[] = sequence();
    const ids = new IdMap();
    const vars: [Vars, Vars] = [{}, {}];
    const pairs: Pair[] = [];
    const { operations, match } = operationMatcher();
    const reached = new Map<string, Set<number>>();
    let requestPairs = 0;
    const fiveHundreds = [0, 0];
    console.log(`sending ${steps.length} steps to both`);
    for (const [index, step] of steps.entries()) {
      const requests = [step.request(vars[0]), step.request(vars[1])] as const;
      const pages = await Promise.all(
        sides.map((side, i) => (step.page ? allPages(side.url, requests[i]!, vars[i]!) : send(side.url, requests[i]!, vars[i]!).then((a) => ({ answers: [a], items: [] as unknown[] })))),
      );
      const [left, right] = pages as [(typeof pages)[0], (typeof pages)[0]];
      requestPairs += Math.max(left.answers.length, right.answers.length);
      left.answers.forEach((a) => a.status >= 500 && fiveHundreds[0]!++);
      right.answers.forEach((a) => a.status >= 500 && fiveHundreds[1]!++);
      // a page holds other items on each side when the list is ordered by random ids: items are compared over all pages
      const found = compareAnswers(left.answers[0]!, right.answers[0]!, ids, step.page);
      if (step.page) {
        if (left.answers.length !== right.answers.length) found.push({ at: 'pages', base: left.answers.length, other: right.answers.length });
        left.answers.slice(1).forEach((a, i) => {
          const b = right.answers[i + 1];
          if (b && a.status !== b.status) found.push({ at: `page ${i + 2} status`, base: a.status, other: b.status });
        });
        const itemDifferences = differences(left.items, right.items, '$items');
        found.push(...itemDifferences);
        // what each side listed, page by page: enough to tell a skipped or repeated item from a changed one
        if (itemDifferences.length) {
          const listed = (pages: typeof left) => pages.answers.map((a) => (nextItems(a) ?? []).map((item) => canonical(item).slice(0, 160)));
          found.push({ at: '$items by page', base: listed(left), other: listed(right) });
        }
      }
      const first = left.answers[0]!;
      const op = match(requests[0].method, requests[0].path);
      if (op) {
        const statuses = reached.get(op.id) ?? new Set<number>();
        statuses.add(first.status);
        reached.set(op.id, statuses);
      }
      step.save?.(left.answers[0]!, vars[0]);
      step.save?.(right.answers[0]!, vars[1]);
      pairs.push({
        step: index + 1,
        label: step.label,
        method: requests[0].method,
        path: requests[0].path.length > 160 ? `${requests[0].path.slice(0, 160)}...` : requests[0].path,
        status: [first.status, right.answers[0]!.status],
        ...(step.page ? { pages: [left.answers.length, right.answers.length] as [number, number] } : {}),
        differences: found,
        ...(found.length ? { answers: [left.answers[0]!.text.slice(0, 4000), right.answers[0]!.text.slice(0, 4000)] as [string, string] } : {}),
      });
      if (found.length) console.log(`DIFFERENCE at step ${index + 1} ${step.label}: ${JSON.stringify(found).slice(0, 400)}`);
    }
    const differing = pairs.filter((p) => p.differences.length);
    const covered = operations.filter((op) => reached.has(op.id));
    const with2xx = covered.filter((op) => [...reached.get(op.id)!].some((s) => s >= 200 && s < 300));
    const missing = operations.filter((op) => !reached.has(op.id));
    const statusCounts: Record<string, number> = {};
    for (const p of pairs) statusCounts[p.status[0]] = (statusCounts[p.status[0]] ?? 0) + 1;
    const seconds = Math.round((Date.now() - began) / 1000);
    const describe = (side: Side) => (side.commit ? `\`${side.ref}\` = ${side.commit.slice(0, 10)} (${side.subject})` : side.url);
    const summary = {
      base: { ref: base.ref, commit: base.commit, subject: base.subject },
      other: { ref: other.ref, commit: other.commit, subject: other.subject },
      steps: steps.length,
      requestPairs,
      operations: { total: operations.length, covered: covered.length, with2xx: with2xx.length, notCovered: missing.map((op) => `${op.method} ${op.path}`) },
      fiveHundreds: { base: fiveHundreds[0], other: fiveHundreds[1] },
      statusesOfFirstAnswers: statusCounts,
      differences: differing.length,
      seconds,
      pairs,
    };
    const markdown = [
      '# HTTP comparison of two versions (`npm run compare`)',
      '',
      `Base ${describe(base)}; other ${describe(other)}.`,
      `Both started as \`npm start\` starts (own DynamoDB Local and ports, the same simulated fleet of ${SEED_DEVICES} devices, SIM_SEED 42, SIM_CHURN 0, local timers off),`,
      'then sent bench/compare/sequence.ts step by step; noise forgiven: UUIDs, timestamps, tokens, cursors, request ids, the order of items that differ only by those (bench/compare/diff.ts).',
      '',
      '| | |',
      '|---|---|',
      `| steps | ${steps.length} |`,
      `| request pairs (cursor pages included) | ${requestPairs} |`,
      `| operations of docs/openapi.json reached | ${covered.length} of ${operations.length} (${with2xx.length} with a 2xx answer) |`,
      `| 5xx answers | base ${fiveHundreds[0]}, other ${fiveHundreds[1]} |`,
      `| steps with a difference | **${differing.length}** |`,
      `| first answers by status (base) | ${Object.entries(statusCounts).map(([s, n]) => `${s}: ${n}`).join(', ')} |`,
      `| duration | ${seconds} s (both builds and starts included) |`,
      '',
      missing.length ? `Operations not reached: ${missing.map((op) => `\`${op.method} ${op.path}\``).join(', ')}.` : 'Every operation was reached.',
      '',
      '## Differences',
      '',
      differing.length
        ? differing
            .map((p) => [`### step ${p.step}: ${p.label}`, '', `\`${p.method} ${p.path}\` -> base ${p.status[0]}, other ${p.status[1]}`, '', ...p.differences.slice(0, 10).map((d) => `- \`${d.at}\`: base \`${JSON.stringify(d.base)}\`, other \`${JSON.stringify(d.other)}\``)].join('\n'))
            .join('\n\n')
        : 'None: every answer was the same but for noise.',
      '',
      '## What the sequence sends',
      '',
      'Every route of docs/openapi.json with valid input and its 4xx cases (unknown ids 404, duplicates and records in use 409,',
      'bad bodies 400/422, no key / a viewer / a scoped operator 401/403/404), and hostile input: malformed JSON, bodies of the',
      'wrong JSON type, empty bodies, text/plain and latin1 content types, unknown fields, lone surrogates (`\\ud800` in JSON,',
      '`%ED%A0%80` in paths and cursors), control characters, 10,000-character strings, 200 KB bodies, 300-deep nesting,',
      'prototype keys, path ids of 2,000 characters, NUL, `..%2F..`; on every paged list limit 0/101/-1/abc/1.5/1001, a forged,',
      'a tampered, an empty and a foreign cursor (one sealed for the device list). Writes go in the same order to both sides.',
      '',
      '## Noise (bench/compare/diff.ts)',
      '',
      '- UUIDs, ISO timestamps, JWTs, epoch numbers and 32+ character tokens (cursors, secrets, tickets) inside values; each',
      "  side's local ports in URLs. Whole-value UUIDs must map one to one between the sides over the whole run.",
      '- Numbers under time keys (`...At`, `...Ms`, `exp`, `iat`...) that are clock readings, within 30 minutes;',
      '  `durationSeconds` (an alarm raised then cleared, each side moments apart) within 10 s. Other numbers are exact.',
      '- Availability ratios within 0.001 and percentages in text within 0.1 points: measured up to now since each',
      "  side's own first sync, started about a minute apart.",
      '- Response headers `date`, `connection`, `keep-alive`, `content-length`, request ids; an `etag` only needs to be on both.',
      '- The order of list items that differ only by the above; paged lists compared as the set of all their pages\' items.',
      '',
      '## Operations and the statuses they answered (base)',
      '',
      '| operation | statuses |',
      '|---|---|',
      ...operations.map((op) => `| \`${op.method} ${op.path}\` | ${[...(reached.get(op.id) ?? [])].sort().join(', ') || 'not reached'} |`),
    ].join('\n');
    writeResult(RESULT, summary, markdown);
    console.log(markdown);
    // a difference fails the comparison; a 5xx alike on both sides is no difference, but still a bug to report
    exitCode = differing.length ? 1 : fiveHundreds.some((n) => n > 0) ? 3 : 0;
  } finally {
    await cleanUp(workRoot);
  }
  process.exit(exitCode);
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
