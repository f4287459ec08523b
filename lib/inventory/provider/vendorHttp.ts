import { logger } from '#lib/shared/log';
import type { ProviderMeter } from './types';
import { sleep, timeoutSignal } from '#lib/shared/timer';

/*
 * The HTTP side every vendor adapter shares (DESIGN §6): a bearer token renewed once on a 401,
 * `Retry-After` honoured (else capped exponential backoff with full jitter), a cap on any one
 * wait and on the waits of one sync, a request budget per sync, a timeout per request. A request
 * that cannot succeed throws ProviderError, whose message names the vendor, the path (never its
 * query or a token) and the vendor's tracking id; the same goes into one log line.
 */

/** A provider call that failed; the message never carries a token or a secret. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    message: string,
    readonly status?: number,
    readonly trackingId?: string,
  ) {
    super(message);
  }
}

export interface VendorHttpOptions {
  /** Names the vendor in errors and log lines (`webex`). */
  vendor: string;
  /** The answer header carrying the vendor's tracking id (Webex `Trackingid`). */
  trackingHeader?: string;
  timeoutMs?: number;
  /** Longest single wait a `Retry-After` may ask for; longer fails the call (a wait past its cap). */
  maxWaitMs?: number;
  /** Total of all waits in one sync (one meter). */
  totalWaitMs?: number;
  /** Requests one sync (one meter) may send. */
  budget?: number;
  /** First backoff without `Retry-After`; doubles per attempt, full jitter, capped at maxWaitMs. */
  backoffMs?: number;
  /** Attempts of one request (throttled or failed answers retried in between). */
  attempts?: number;
  random?: () => number;
}

/** A bearer token source: `renew` after a 401 of `rejected` (a fresh token, or the same when it cannot renew). */
interface TokenSource {
  token(meter?: ProviderMeter): Promise<string>;
  renew(meter?: ProviderMeter, rejected?: string): Promise<string>;
}

/** A token as issued: the value and when it stops working. */
export interface IssuedToken {
  token: string;
  expiresAt: number;
}

/**
 * A cached token, renewed `renewBeforeMs` before it expires and after a 401; one issue at a time
 * (the listings of a sync run side by side and would each ask for one), and a 401 of a token
 * already replaced takes the new one rather than asking again.
 */
export const cachedTokens = (issue: (fresh: boolean, meter?: ProviderMeter) => Promise<IssuedToken>, renewBeforeMs: number, now: () => number): TokenSource => {
  let cached: IssuedToken | undefined;
  let pending: Promise<string> | undefined;
  const refresh = (fresh: boolean, meter?: ProviderMeter) => {
    pending ??= issue(fresh, meter)
      .then((issued) => {
        cached = issued;
        return issued.token;
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };
  return {
    token: (meter) => (cached && cached.expiresAt - renewBeforeMs > now() ? Promise.resolve(cached.token) : refresh(false, meter)),
    renew: (meter, rejected) => (cached && rejected !== undefined && cached.token !== rejected ? Promise.resolve(cached.token) : refresh(true, meter)),
  };
};

interface VendorAnswer {
  status: number;
  body: unknown;
  headers: Headers;
}

/** Answers worth waiting for: throttled (429), locked (423), the gateway's passing failures. */
const RETRYABLE = new Set([423, 429, 502, 503, 504]);

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
const retryAfterMs = (value: string | null, now = Date.now()): number | undefined => {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
};

const pathOf = (url: string): string => {
  try {
    return new URL(url).pathname;
  } catch {
    return '(bad url)';
  }
};

export const vendorHttp = (options: VendorHttpOptions) => {
  const {
    vendor,
    trackingHeader = 'trackingid',
    timeoutMs = 15_000,
    maxWaitMs = 60_000,
    totalWaitMs = 600_000,
    budget = 50_000,
    backoffMs = 250,
    attempts = 6,
    random = Math.random,
  } = options;

  const fail = (message: string, status?: number, trackingId?: string): never => {
    // the tracking id is what vendor support asks for; the token never reaches a log line
    logger.warn('vendor request failed', { vendor, message, status, trackingId });
    throw new ProviderError(`${vendor}: ${message}${trackingId ? ` (tracking id ${trackingId})` : ''}`, status, trackingId);
  };

  const wait = async (meter: ProviderMeter | undefined, ms: number, path: string, status: number, trackingId?: string) => {
    if (ms > maxWaitMs) fail(`${path} answered ${status} asking to wait ${Math.ceil(ms / 1000)} s, over the cap of ${Math.ceil(maxWaitMs / 1000)} s`, status, trackingId);
    if (meter && meter.waitedMs + ms > totalWaitMs) fail(`waits of this sync would pass ${Math.ceil(totalWaitMs / 1000)} s (${path} answered ${status})`, status, trackingId);
    if (meter) {
      meter.throttledWaits++;
      meter.waitedMs += ms;
    }
    await sleep(ms);
  };

  /** One request with its retries; answers any status outside 2xx/401/403/retryable to the caller. */
  const send = async (url: string, init: { method?: string; headers?: Record<string, string>; body?: string }, meter?: ProviderMeter): Promise<VendorAnswer> => {
    const path = pathOf(url);
    for (let attempt = 1; ; attempt++) {
      if (meter && meter.requests >= budget) fail(`request budget of ${budget} per sync spent (at ${path})`);
      if (meter) meter.requests++;
      let response: Response;
      try {
        response = await fetch(url, { ...init, signal: timeoutSignal(timeoutMs) });
      } catch (error) {
        const reason = error instanceof Error ? error.name : 'error';
        if (attempt >= attempts) fail(`${path} unreachable (${reason})`);
        await wait(meter, Math.min(maxWaitMs, backoffMs * 2 ** (attempt - 1) * random()), path, 0);
        continue;
      }
      const trackingId = response.headers.get(trackingHeader) ?? undefined;
      if (RETRYABLE.has(response.status)) {
        await response.body?.cancel();
        if (attempt >= attempts) fail(`${path} answered ${response.status} ${attempts} times`, response.status, trackingId);
        const asked = retryAfterMs(response.headers.get('retry-after'));
        await wait(meter, asked ?? Math.min(maxWaitMs, backoffMs * 2 ** (attempt - 1) * random()), path, response.status, trackingId);
        continue;
      }
      if (response.status >= 500) {
        await response.body?.cancel();
        fail(`${path} answered ${response.status}`, response.status, trackingId);
      }
      const text = await response.text();
      let body: unknown;
      if (text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          if (response.ok) fail(`${path} answered something that is not JSON`, response.status, trackingId);
        }
      }
      return { status: response.status, body, headers: response.headers };
    }
  };

  /**
   * A GET with the bearer token: renewed once after a 401; a second 401 or a 403 fails. Answers
   * 2xx and the 4xx the caller reads itself (404, 400).
   */
  const get = async (url: string, tokens: TokenSource, meter?: ProviderMeter): Promise<VendorAnswer> => {
    const path = pathOf(url);
    let token = await tokens.token(meter);
    for (let renewed = false; ; renewed = true) {
      const answer = await send(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } }, meter);
      const trackingId = answer.headers.get(trackingHeader) ?? undefined;
      if (answer.status === 401 && !renewed) {
        token = await tokens.renew(meter, token);
        continue;
      }
      if (answer.status === 401 || answer.status === 403) fail(`${path} refused the credentials (${answer.status})`, answer.status, trackingId);
      return answer;
    }
  };

  return { send, get, fail };
};

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
export const isString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
