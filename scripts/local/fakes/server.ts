/**
 * What both vendor fakes share: a loopback HTTP server, the faults a real vendor API shows
 * (429 with `Retry-After` at a configurable rate, bursts of 5xx, a vendor that is down, slow
 * answers), counters, and a control path (`POST /_fake/faults` merges a JSON object into the
 * faults, `GET /_fake/stats` answers the counters) so that a fake running in another process
 * (`npm start`) can be made to fail by hand: `curl -X POST -d '{"down":500}' <fake>/_fake/faults`.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { ProviderDevice } from '../../../lib/devices/types';

export interface Faults {
  /** Share of API requests (0..1) answered 429 (token requests are never throttled). */
  rate429: number;
  /** `Retry-After` seconds sent with a 429; null sends none (Zoom: not established that it does). */
  retryAfterSeconds: number | null;
  /** The next this-many API requests answer 503. */
  burst5xx: number;
  /** While set, every API request answers this status (a vendor that is down). */
  down: number | null;
  /** API requests after this many (counted from when it is set) answer 500: a listing that fails midway. */
  failAfterRequests: number | null;
  /** Every API answer waits this long first (slow pages). */
  slowMs: number;
  /** The listing page (0-based) whose first record is malformed; null: none. */
  malformedPage: number | null;
}

export interface FakeStats {
  requests: number;
  throttled: number;
  failed: number;
  tokensIssued: number;
}

export const noFaults = (): Faults => ({ rate429: 0, retryAfterSeconds: 1, burst5xx: 0, down: null, failAfterRequests: null, slowMs: 0, malformedPage: null });

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface FakeServer {
  url: string;
  faults: Faults;
  stats: FakeStats;
  close: () => Promise<void>;
}

/** What every vendor fake is given besides its credentials. */
export interface VendorFakeOptions {
  devices: () => readonly ProviderDevice[];
  /** Lifetime of an issued access token. */
  tokenTtlSeconds?: number;
  extras?: boolean;
  faults?: Partial<Faults>;
  port?: number;
}

/** A running vendor fake. */
export interface VendorFake extends FakeServer {
  /** Every access token issued so far is refused from now on (401). */
  expireTokens(): void;
  setDevices(devices: () => readonly ProviderDevice[]): void;
}

/** A running server as a vendor fake: `expireTokens` forgets every token issued, `setDevices` swaps the fleet. */
export const vendorFake = (server: FakeServer, tokens: { clear(): void }, setDevices: VendorFake['setDevices']): VendorFake => ({
  ...server,
  expireTokens: () => tokens.clear(),
  setDevices,
});

/** A deterministic stream in [0, 1): the 429s of a run land on the same requests every time. */
const sequence = (seed: number) => {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
};

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({ status, body, headers });

/**
 * Serves `handle` on a free loopback port (or `port`). `isToken(path)` names the token endpoint,
 * which faults leave alone; `trackingHeader` is added to every answer.
 */
export const startFake = async (options: {
  handle: (req: IncomingMessage, url: URL, body: string) => Reply | Promise<Reply>;
  isToken: (path: string) => boolean;
  trackingHeader: string;
  faults?: Partial<Faults>;
  seed?: number;
  port?: number;
}): Promise<FakeServer> => {
  const faults: Faults = { ...noFaults(), ...options.faults };
  const stats: FakeStats = { requests: 0, throttled: 0, failed: 0, tokensIssued: 0 };
  const next = sequence(options.seed ?? 7);
  const send = (res: ServerResponse, reply: Reply) => {
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
  };
  const server = createServer(async (req, res) => {
    res.setHeader(options.trackingHeader, `FAKE_${randomUUID()}`);
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await readBody(req);
    if (url.pathname === '/_fake/faults' && req.method === 'POST') {
      Object.assign(faults, JSON.parse(body || '{}') as Partial<Faults>);
      return send(res, json(200, faults));
    }
    if (url.pathname === '/_fake/stats') return send(res, json(200, { ...stats, faults }));
    const token = options.isToken(url.pathname);
    if (token) stats.tokensIssued++;
    else {
      stats.requests++;
      if (faults.slowMs > 0) await new Promise((resolve) => setTimeout(resolve, faults.slowMs));
      if (faults.down !== null) {
        stats.failed++;
        return send(res, json(faults.down, { message: 'Service unavailable (fake: down)' }));
      }
      if (faults.failAfterRequests !== null && faults.failAfterRequests-- <= 0) {
        faults.failAfterRequests = 0;
        stats.failed++;
        return send(res, json(500, { message: 'Internal Server Error (fake: failing midway)' }));
      }
      if (faults.burst5xx > 0) {
        faults.burst5xx--;
        stats.failed++;
        return send(res, json(503, { message: 'Service Unavailable (fake: burst)' }));
      }
      if (faults.rate429 > 0 && next() < faults.rate429) {
        stats.throttled++;
        const headers: Record<string, string> = faults.retryAfterSeconds === null ? {} : { 'retry-after': String(faults.retryAfterSeconds) };
        return send(res, json(429, { message: 'Too Many Requests' }, headers));
      }
    }
    try {
      send(res, await options.handle(req, url, body));
    } catch (error) {
      send(res, json(500, { message: error instanceof Error ? error.message : 'fake failed' }));
    }
  });
  // keep-alive sockets of a client must not hold close() up
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    faults,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** The bearer token of a request, if any. */
export const bearer = (req: IncomingMessage): string | undefined => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
