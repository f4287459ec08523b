import type { LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { timeoutSignal } from '#lib/shared/timer';
import { addressProblem, urlProblem } from './address';
import type { AttemptOutcome } from './pure/retry';
import { signatureOf } from './pure/signature';

/** A webhook receiver gets this long to answer, so a slow receiver cannot hold up the engine run; past it the delivery is retried. */
export const WEBHOOK_TIMEOUT_MS = 5_000;

interface WebhookRequest {
  url: string;
  body: string;
  deliveryId: string;
  secret: string;
  timeoutMs: number;
  allowLocal: boolean;
}

/** Raised by the guarded lookup: the name resolved to an address webhooks may not reach. */
export class UnsafeTarget extends Error {}

// node:dns loads on the first webhook sent: most engine runs send none (DESIGN §8, docs/adr/0502); `require` keeps the lookup synchronous
let dns: typeof import('node:dns') | undefined;

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The DNS lookup of a webhook connection, checked: every address the name resolves to must be
 * public (or loopback with ALLOW_LOCAL_WEBHOOKS). The connection uses exactly the addresses
 * checked here, so a DNS answer that changes after a check (rebinding) cannot slip through.
 */
export const guardedLookup =
  (allowLocal: boolean) =>
  (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void => {
    (dns ??= require('node:dns') as typeof import('node:dns')).lookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const bad = addresses.map((a) => addressProblem(a.address, allowLocal)).find(Boolean);
      if (bad || addresses.length === 0) return callback(new UnsafeTarget(`url host ${hostname} resolves to ${bad ?? 'nothing'}`), []);
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };

export const retryAfter = (header: string | undefined): number | undefined => {
  const seconds = header === undefined ? Number.NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
};

/**
 * One POST of a signed body (node's own HTTP client, so that the connection's address is the
 * checked one). Redirects are not followed: a 3xx fails, it could lead anywhere. Never throws:
 * every way it can end is an outcome.
 */
export const postWebhook = async (request: WebhookRequest): Promise<AttemptOutcome> => {
  try {
    return await post(request);
  } catch (error) {
    // whatever the runtime throws while setting the request up is this attempt's outcome, never the run's failure
    return { kind: 'unreachable', reason: error instanceof Error ? error.message : String(error) };
  }
};

const post = (request: WebhookRequest): Promise<AttemptOutcome> => {
  const problem = urlProblem(request.url, request.allowLocal);
  if (problem) return Promise.resolve({ kind: 'refused', reason: problem });
  const url = new URL(request.url);
  const timestamp = Math.floor(Date.now() / 1000);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<AttemptOutcome>((resolve) => {
    const outgoing = send(
      url,
      {
        method: 'POST',
        lookup: guardedLookup(request.allowLocal) as never,
        signal: timeoutSignal(request.timeoutMs),
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(request.body),
          'user-agent': 'device-monitoring-webhooks/1',
          'x-delivery-id': request.deliveryId,
          'x-signature-timestamp': String(timestamp),
          'x-signature-256': signatureOf(request.secret, timestamp, request.body),
        },
      },
      (response: IncomingMessage) => {
        response.resume();
        const after = retryAfter(response.headers['retry-after']);
        resolve({ kind: 'answered', status: response.statusCode ?? 0, ...(after === undefined ? {} : { retryAfterSeconds: after }) });
      },
    );
    outgoing.on('error', (error: Error) => {
      if (error instanceof UnsafeTarget) resolve({ kind: 'refused', reason: error.message });
      else if (error.name === 'AbortError' || error.name === 'TimeoutError') resolve({ kind: 'timeout' });
      else resolve({ kind: 'unreachable', reason: error.message });
    });
    outgoing.end(request.body);
  });
};
