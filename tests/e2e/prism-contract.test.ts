import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStore, type LocalStore } from '../../scripts/local/dynamo';
import { stillFleetEnv, type Instance } from '../../scripts/local/instance';
import { ownInstance } from '../support/instance';
import { startFaithfulStore, type FaithfulStore } from '../support/faithful';
import { startPrism, type PrismProxy } from '../support/prism';
import { routes, type Route } from '../support/routes';
import { compiledValidator, eventSchemaOf } from '../support/schemas';
import {
  allDocumentedHeaders,
  breaches,
  exchange,
  pathOf,
  requestViolations,
  validRequest,
  type Exchange,
  type RequestParts,
} from '../support/contractSweep';

/*
 * An external validator over the whole API: Stoplight Prism (`prism proxy`) in front of a private
 * `npm start` judges every answer against docs/openapi.json, for every operation, valid requests
 * and invalid ones. An answer breaks the contract when Prism finds its status, body or media type
 * undocumented or a required header missing, or when it carries a header the document does not
 * give that answer. The instance is the file's own (ACCESS_MODE=user, a store it can throttle): the
 * sweep creates, deletes and locks out as it goes, and at the end makes the store refuse
 * everything to see every operation's 503.
 */
const KEY = 'prism-sweep-e2e-api-key-0123456789';
const ADMIN = { username: 'sweep-admin', password: 'Granite-harbour-lantern-8472' };
const LOGIN_MAX_FAILURES = 3;

let store: LocalStore;
let faithful: FaithfulStore;
let instance: Instance;
let prism: PrismProxy;
let adminToken = '';
const all = await routes();
/** The event receivers: no API key (a vendor's signature is their credential), so a request without one is refused 401, not 403. */
const isReceiver = (route: { contract: { apiKey?: boolean } }): boolean => route.contract.apiKey === false;
const seen: Exchange[] = [];

const signIn = async (): Promise<string> => {
  const answer = await fetch(`${instance.url}/api/authService/auth/signin`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { accessToken: string }).accessToken;
};

beforeAll(async () => {
  store = await startLocalStore();
  faithful = await startFaithfulStore(store.endpoint, { lagMs: 0, throttleRate: 0, conflictRate: 0 });
  instance = await ownInstance('.esbuild-e2e-prism', {
    ...stillFleetEnv,
    API_KEY: KEY,
    ACCESS_MODE: 'user',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    DYNAMODB_ENDPOINT: faithful.endpoint,
    SEED_DEVICES: '30',
    PASSWORD_SCRYPT_LOG_N: '14',
    LOGIN_MAX_FAILURES: String(LOGIN_MAX_FAILURES),
  });
  prism = await startPrism(instance.url);
  adminToken = await signIn();
}, 600_000);

afterAll(async () => {
  await prism?.stop();
  await instance?.stop();
  await faithful?.close();
  await store?.close();
});

/** Runs `work` over `items`, `width` at a time. */
const inBatches = async <T>(items: readonly T[], width: number, work: (item: T) => Promise<void>) => {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(work));
};

/** One request through Prism, kept for the checks at the end. */
const send = async (route: Route, label: string, parts: RequestParts, headers: Record<string, string>, raw?: string): Promise<Exchange> => {
  const body = raw ?? (parts.body === undefined ? undefined : JSON.stringify(parts.body));
  const sent = await exchange(prism.url, route, label, {
    path: pathOf(route, parts.path),
    query: parts.query,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body,
  });
  seen.push(sent);
  return sent;
};

const asAdmin = (token = adminToken) => ({ 'x-api-key': KEY, authorization: `Bearer ${token}` });
const isLogout = (route: Route) => route.functionName === 'sessionsLogout';

const valid = new Map<string, RequestParts>();
const expectKept = (exchanges: Exchange[]) => expect(exchanges.flatMap(breaches)).toEqual([]);

describe('Prism in front of npm start: every answer as docs/openapi.json documents it', () => {
  it('generates a request every route accepts', async () => {
    const missing: string[] = [];
    for (const [index, route] of all.entries()) {
      const parts = await validRequest(route, index + 1);
      if (parts) valid.set(route.functionName, parts);
      else missing.push(route.functionName);
    }
    expect(missing).toEqual([]);
  });

  it('answers a valid request to every operation as documented, and Prism finds the request valid', async () => {
    const exchanges: Exchange[] = [];
    await inBatches(
      all.filter((route) => !isLogout(route)),
      4,
      async (route) => void exchanges.push(await send(route, 'valid', valid.get(route.functionName)!, asAdmin())),
    );
    // last: logout revokes the token it is sent with, so a token of its own
    const logout = all.find(isLogout)!;
    exchanges.push(await send(logout, 'valid', valid.get(logout.functionName)!, asAdmin(await signIn())));
    expect(exchanges).toHaveLength(all.length);
    expectKept(exchanges);
    expect(exchanges.flatMap((e) => requestViolations(e).map((v) => `${e.route.functionName}: ${v.location.join('.')} ${v.message}`))).toEqual([]);
    // the sweep reaches the handlers (about half the generated requests succeed; the others name
    // records that do not exist), and none is a fault
    expect(exchanges.filter((e) => e.status < 300).length).toBeGreaterThan(all.length / 3);
    expect(exchanges.filter((e) => e.status >= 500).map((e) => `${e.route.functionName} ${e.status} ${e.body}`)).toEqual([]);
  });

  it('answers requests without the API key (403), with a forged bearer token (401) and with invalid input as documented', async () => {
    const exchanges: Exchange[] = [];
    await inBatches(all, 4, async (route) => {
      const parts = valid.get(route.functionName)!;
      exchanges.push(await send(route, 'no API key', parts, {}));
      if (route.contract.permission !== 'public') exchanges.push(await send(route, 'forged token', parts, asAdmin('eyJhbGciOiJFZERTQSJ9.e30.c2lnbmF0dXJl')));
      const invalid = await invalidRequest(route, parts);
      if (invalid) exchanges.push(await send(route, 'invalid input', invalid, asAdmin()));
      if (route.contract.request?.body) exchanges.push(await send(route, 'text/plain body', parts, { ...asAdmin(), 'content-type': 'text/plain' }, JSON.stringify(parts.body ?? {})));
    });
    expectKept(exchanges);
    expect(exchanges.filter((e) => e.label === 'no API key' && !isReceiver(e.route)).every((e) => e.status === 403)).toBe(true);
    const unsigned = exchanges.filter((e) => e.label === 'no API key' && isReceiver(e.route));
    expect(unsigned.length).toBeGreaterThan(0);
    expect(unsigned.every((e) => e.status === 401)).toBe(true);
    expect(exchanges.filter((e) => e.label === 'forged token').every((e) => e.status === 401)).toBe(true);
    expect(exchanges.filter((e) => e.label === 'invalid input' || e.label === 'text/plain body').map((e) => e.status).every((s) => s >= 400 && s < 500)).toBe(true);
  });

  it('names the next CSV page in the next-cursor header, and says when a create is answered again (idempotent-replayed)', async () => {
    const csvPages = all.filter((route) => route.functionName === 'devicesAllDevices' || route.functionName === 'auditList');
    expect(csvPages).toHaveLength(2);
    const exchanges: Exchange[] = [];
    for (const route of csvPages) {
      const parts = valid.get(route.functionName)!;
      // the whole fleet, or the audit log of this run: more than one page of one
      const body = route.contract.request?.body ? { regionName: 'all', locationName: 'all', roomName: 'all' } : undefined;
      const sent = await send(route, 'csv page', { ...parts, body, query: { ...parts.query, format: 'csv', limit: '1' } }, asAdmin());
      expect(sent.status, sent.body).toBe(200);
      expect(sent.headers.get('next-cursor'), route.functionName).toBeTruthy();
      exchanges.push(sent);
    }
    const replayed: string[] = [];
    for (const route of all.filter((r) => r.contract.idempotent)) {
      const parts = valid.get(route.functionName)!;
      const key = `sweep-${route.functionName}`;
      const first = await send(route, 'idempotent create', parts, { ...asAdmin(), 'idempotency-key': key });
      const again = await send(route, 'idempotent create, again', parts, { ...asAdmin(), 'idempotency-key': key });
      exchanges.push(first, again);
      if (first.status < 300) {
        expect(again.headers.get('idempotent-replayed'), route.functionName).toBe('true');
        replayed.push(route.functionName);
      }
    }
    expect(replayed.length).toBeGreaterThan(0);
    expectKept(exchanges);
  });

  it('answers a locked sign-in with 429 and Retry-After, as documented', async () => {
    const signin = all.find((route) => route.functionName === 'sessionsSignin')!;
    const exchanges: Exchange[] = [];
    for (let attempt = 0; attempt <= LOGIN_MAX_FAILURES; attempt++) {
      exchanges.push(await send(signin, 'wrong password', { path: {}, query: {}, body: { username: 'sweep-guesser', password: 'not-the-password-123' } }, { 'x-api-key': KEY }));
    }
    expect(exchanges.map((e) => e.status)).toEqual([...Array(LOGIN_MAX_FAILURES).fill(401), 429]);
    expect(Number(exchanges.at(-1)!.headers.get('retry-after'))).toBeGreaterThan(0);
    expectKept(exchanges);
  });

  it('answers every operation with 503 and Retry-After while the store refuses every request', async () => {
    const token = await signIn();
    faithful.configure({ throttleRate: 1 });
    const exchanges: Exchange[] = [];
    await inBatches(all, 36, async (route) => void exchanges.push(await send(route, 'store throttled', valid.get(route.functionName)!, asAdmin(token))));
    expectKept(exchanges);
    // every operation reads the store before it answers a valid request: all answer 503 (an event
    // receiver's request is unsigned here: refused 401, or 503 when counting the refusal failed)
    expect(exchanges.filter((e) => !isReceiver(e.route) && e.status !== 503).map((e) => `${e.route.functionName} ${e.status}`)).toEqual([]);
    expect(exchanges.filter((e) => isReceiver(e.route) && e.status !== 503 && e.status !== 401).map((e) => `${e.route.functionName} ${e.status}`)).toEqual([]);
    expect(exchanges.filter((e) => e.status === 503).every((e) => Number(e.headers.get('retry-after')) > 0)).toBe(true);
  });

  it('saw every header the document gives, on the answers that give it', () => {
    const sent = new Set(seen.flatMap((e) => [...e.headers.keys()]));
    expect([...allDocumentedHeaders()].filter((name) => !sent.has(name))).toEqual([]);
  });
});

/** A request the route's validator refuses: an unknown property in the body, else a path or query value out of bounds. */
const invalidRequest = async (route: Route, parts: RequestParts): Promise<RequestParts | undefined> => {
  if (!eventSchemaOf(route)) return undefined; // takes no input: nothing to get wrong
  const validate = await compiledValidator(route.functionName);
  const refused = (candidate: RequestParts) =>
    !validate({
      pathParameters: Object.keys(candidate.path).length ? candidate.path : null,
      queryStringParameters: Object.keys(candidate.query).length ? candidate.query : null,
      body: candidate.body,
    });
  const candidates: RequestParts[] = [
    ...(route.contract.request?.body ? [{ ...parts, body: { 'sweep-unknown-field': true } }, { ...parts, body: [] }, { ...parts, body: 42 }] : []),
    ...Object.keys(parts.path).map((name) => ({ ...parts, path: { ...parts.path, [name]: 'x'.repeat(300) } })),
    ...Object.keys(route.contract.request?.query ?? {}).flatMap((name) => ['x'.repeat(3000), '-1'].map((value) => ({ ...parts, query: { ...parts.query, [name]: value } }))),
  ];
  return candidates.find(refused);
};
