/**
 * What both vendor fakes share: a loopback HTTP server, the faults a real vendor API shows
 * (429 with `Retry-After` at a configurable rate, bursts of 5xx, a vendor that is down, slow
 * answers), counters, and a control path so that a fake running in another process
 * (`npm start`) can be made to fail by hand: `POST /_fake/faults` merges a JSON object into the
 * faults (`curl -d '{"down":500}' <fake>/_fake/faults`; a field it does not know or a value out
 * of range answers 400 naming the field), `GET /_fake/stats` answers the counters, and each
 * vendor fake adds its own routes under `/_fake/` (`control`: one device's fields). A fake never
 * takes its process down: an error inside it answers 500 and is logged.
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
  /** A fake that pushes events (Zoom): the next this-many events are not sent. */
  dropWebhooks: number;
  /** The next this-many events are sent twice (as Zoom's retries can). */
  duplicateWebhooks: number;
  /** Every event is sent this long after its change. */
  webhookDelayMs: number;
}

export interface FakeStats {
  requests: number;
  throttled: number;
  failed: number;
  tokensIssued: number;
}

/** Each fault's check: undefined when the value is one it takes, else what it takes. */
const FAULT_VALUES: { [K in keyof Faults]: (value: unknown) => string | undefined } = {
  rate429: (v) => (typeof v === 'number' && v >= 0 && v <= 1 ? undefined : 'a number from 0 to 1'),
  retryAfterSeconds: (v) => (v === null || (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 3600) ? undefined : 'null or an integer from 0 to 3600'),
  burst5xx: (v) => (Number.isInteger(v) && (v as number) >= 0 ? undefined : 'an integer from 0'),
  // a status the fake can send that a client reads as a failure
  down: (v) => (v === null || (Number.isInteger(v) && (v as number) >= 400 && (v as number) <= 599) ? undefined : 'null or an HTTP status from 400 to 599'),
  failAfterRequests: (v) => (v === null || (Number.isInteger(v) && (v as number) >= 0) ? undefined : 'null or an integer from 0'),
  slowMs: (v) => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 600_000 ? undefined : 'an integer from 0 to 600000'),
  malformedPage: (v) => (v === null || (Number.isInteger(v) && (v as number) >= 0) ? undefined : 'null or an integer from 0'),
  dropWebhooks: (v) => (Number.isInteger(v) && (v as number) >= 0 ? undefined : 'an integer from 0'),
  duplicateWebhooks: (v) => (Number.isInteger(v) && (v as number) >= 0 ? undefined : 'an integer from 0'),
  webhookDelayMs: (v) => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 600_000 ? undefined : 'an integer from 0 to 600000'),
};

/** A fake's control input refused: answered 400 with its message. */
export class ControlError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** The faults a control body sets, every field checked before any is applied; throws ControlError naming the first bad one. */
export const faultsFrom = (body: unknown): Partial<Faults> => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ControlError('the body must be a JSON object of faults');
  for (const [field, value] of Object.entries(body)) {
    if (!Object.hasOwn(FAULT_VALUES, field)) throw new ControlError(`unknown fault ${JSON.stringify(field)}; known: ${Object.keys(FAULT_VALUES).join(', ')}`);
    const wanted = FAULT_VALUES[field as keyof Faults](value);
    if (wanted) throw new ControlError(`${field} must be ${wanted}`);
  }
  return body as Partial<Faults>;
};

/** A control request's JSON body; throws ControlError when it is not JSON. */
export const controlBody = (text: string): unknown => {
  try {
    return JSON.parse(text || '{}');
  } catch {
    throw new ControlError('the body must be JSON');
  }
};

/** The largest control or API request body a fake reads (a 450 KB field fits). */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

export const noFaults = (): Faults => ({
  rate429: 0,
  retryAfterSeconds: 1,
  burst5xx: 0,
  down: null,
  failAfterRequests: null,
  slowMs: 0,
  malformedPage: null,
  dropWebhooks: 0,
  duplicateWebhooks: 0,
  webhookDelayMs: 0,
});

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
    req.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > MAX_BODY_BYTES) reject(new ControlError(`the body is over ${MAX_BODY_BYTES} bytes`, 413));
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({ status, body, headers });

/**
 * Serves `handle` on a free loopback port (or `port`). `isToken(path)` names the token endpoint,
 * which faults leave alone; `trackingHeader` is added to every answer.
 */
export const startFake = async (options: {
  /** Named in log lines and errors (`webex`, `zoom`). */
  name?: string;
  handle: (req: IncomingMessage, url: URL, body: string) => Reply | Promise<Reply>;
  /** The vendor's own control routes under `/_fake/`: a reply (or its promise: a control that calls out), or undefined for a path it does not serve. */
  control?: (req: IncomingMessage, url: URL, body: string) => Reply | undefined | Promise<Reply | undefined>;
  isToken: (path: string) => boolean;
  trackingHeader: string;
  faults?: Partial<Faults>;
  seed?: number;
  port?: number;
}): Promise<FakeServer> => {
  const faults: Faults = { ...noFaults(), ...options.faults };
  const stats: FakeStats = { requests: 0, throttled: 0, failed: 0, tokensIssued: 0 };
  const next = sequence(options.seed ?? 7);
  const name = options.name ?? 'vendor';
  const send = (res: ServerResponse, reply: Reply) => {
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
  };
  const server = createServer((req, res) => {
    // nothing a request does may escape as an exception: that would end the process (npm start)
    serve(req, res).catch((error: unknown) => {
      if (error instanceof ControlError) {
        if (!res.headersSent) send(res, json(error.status, { message: error.message }));
        return;
      }
      console.error(`[${name} fake] ${req.method} ${req.url?.split('?')[0]} failed:`, error);
      if (res.headersSent) res.destroy();
      else send(res, json(500, { message: `the ${name} fake failed: ${error instanceof Error ? error.message : String(error)}` }));
    });
  });
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader(options.trackingHeader, `FAKE_${randomUUID()}`);
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await readBody(req);
    if (url.pathname === '/_fake/faults' && req.method === 'POST') {
      Object.assign(faults, faultsFrom(controlBody(body)));
      return send(res, json(200, faults));
    }
    if (url.pathname === '/_fake/stats') return send(res, json(200, { ...stats, faults }));
    if (url.pathname.startsWith('/_fake/')) return send(res, (await options.control?.(req, url, body)) ?? json(404, { message: `no control route ${req.method} ${url.pathname}` }));
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
    send(res, await options.handle(req, url, body));
  };
  server.on('clientError', (_error, socket) => socket.destroy());
  // keep-alive sockets of a client must not hold close() up
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(`the ${name} fake cannot listen on 127.0.0.1:${options.port ?? 0} (${error.code ?? error.message})`)),
    );
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  server.on('error', (error) => console.error(`[${name} fake] server error:`, error));
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

/** Fields of one device set by hand: shorthands any vendor knows, and the vendor record's own fields. */
interface DevicePatch {
  /** Connected or not (the vendor's own state follows: Webex `connectionStatus`, Zoom `status`). */
  connected?: boolean;
  /** The room and location the vendor places it in (a Webex workspace and location, a Zoom room and city). */
  room?: string;
  location?: string;
  /** Fields of the vendor's device record, over what the fake makes of it; null removes one. */
  record: Record<string, unknown>;
}

const SHORTHANDS = {
  connected: (v: unknown) => (typeof v === 'boolean' ? undefined : 'true or false'),
  room: (v: unknown) => (typeof v === 'string' && v !== '' ? undefined : 'a non-empty string'),
  location: (v: unknown) => (typeof v === 'string' && v !== '' ? undefined : 'a non-empty string'),
} as const;

/**
 * The devices a fake serves with fields set by hand (`POST /_fake/devices/<serial>`): set for a
 * serial number until cleared (`DELETE`), kept across the fleet's own changes. `onChange` hears
 * every change (the place for a fake that pushes events to hook in).
 */
export const deviceOverrides = (onChange: (serial: string) => void) => {
  const patches = new Map<string, DevicePatch>();
  return {
    /** The fleet with each patched device's shorthands applied (what the fake builds its records from). */
    fleet(devices: readonly ProviderDevice[]): readonly ProviderDevice[] {
      if (patches.size === 0) return devices;
      return devices.map((device) => {
        const patch = patches.get(device.devicesn);
        if (!patch) return device;
        const connected = patch.connected ?? device.status.connected;
        return {
          ...device,
          status: connected === device.status.connected ? device.status : { connected, inCallStatus: 'NONE' },
          details: { ...device.details, ...(patch.room === undefined ? {} : { room: patch.room }), ...(patch.location === undefined ? {} : { location: patch.location }) },
        };
      });
    },
    /** A vendor record with its device's own fields over it (null removes one). */
    record(serial: unknown, record: Record<string, unknown>): Record<string, unknown> {
      const patch = typeof serial === 'string' ? patches.get(serial) : undefined;
      if (!patch) return record;
      const patched = { ...record };
      for (const [field, value] of Object.entries(patch.record)) {
        if (value === null) delete patched[field];
        else patched[field] = value;
      }
      return patched;
    },
    /**
     * The control route `POST|DELETE /_fake/devices/<serial>` of a fake whose fleet `has` the
     * serial number; undefined for another path.
     */
    control(req: IncomingMessage, url: URL, body: string, has: (serial: string) => boolean): Reply | undefined {
      const match = /^\/_fake\/devices\/([^/]+)$/.exec(url.pathname);
      if (!match) return undefined;
      let serial: string;
      try {
        serial = decodeURIComponent(match[1]!);
      } catch {
        throw new ControlError('the serial number in the path is not URI-encoded text');
      }
      if (req.method === 'DELETE') {
        patches.delete(serial);
        onChange(serial);
        return json(200, { serial, fields: {} });
      }
      if (req.method !== 'POST') return json(405, { message: 'POST or DELETE' });
      if (!has(serial)) throw new ControlError(`no device with serial number ${JSON.stringify(serial)} in this fake's fleet`, 404);
      const input = controlBody(body);
      if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new ControlError('the body must be a JSON object of the device\'s fields');
      const patch: DevicePatch = { ...patches.get(serial), record: { ...patches.get(serial)?.record } };
      for (const [field, value] of Object.entries(input)) {
        if (Object.hasOwn(SHORTHANDS, field)) {
          const wanted = SHORTHANDS[field as keyof typeof SHORTHANDS](value);
          if (wanted) throw new ControlError(`${field} must be ${wanted}`);
          Object.assign(patch, { [field]: value });
        } else patch.record[field] = value;
      }
      patches.set(serial, patch);
      onChange(serial);
      const { record, ...shorthands } = patch;
      return json(200, { serial, fields: { ...shorthands, ...record } });
    },
  };
};
