/*
 * Store faults a client can do nothing about but retry: throttling, timeouts, the store's own
 * 5xx, and the connection failing (refused, reset, unreachable, name not resolved). Each is a
 * 503 with Retry-After, never a 500: nothing the request asked for has been half-done by it
 * (single-item writes are atomic; multi-item requests are idempotent and converge on a retry).
 */
export type StoreFault = 'busy' | 'unavailable';

// DeadlineExceeded: a store too slow for a run's budget to even start it (lib/shared/deadline.ts)
const BUSY = new Set(['ThrottlingException', 'ProvisionedThroughputExceededException', 'RequestLimitExceeded', 'TimeoutError', 'DeadlineExceeded']);
const UNAVAILABLE = new Set(['InternalServerError', 'ServiceUnavailable', 'ServiceUnavailableException', 'RequestTimeout', 'RequestTimeoutException']);
/** Node's codes for a connection that failed or broke (the SDK rethrows them after its retries). */
const CONNECTION = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);

interface SdkError {
  name?: string;
  code?: unknown;
  $fault?: unknown;
  $metadata?: { httpStatusCode?: number };
}

/** Whether (and how) an error is the store being busy or unavailable; undefined for anything else. */
export const storeFault = (error: unknown): { fault: StoreFault; reason: string } | undefined => {
  if (!(error instanceof Error)) return undefined;
  const { name, code, $fault, $metadata } = error as SdkError;
  if (name && BUSY.has(name)) return { fault: 'busy', reason: name };
  if (name && UNAVAILABLE.has(name)) return { fault: 'unavailable', reason: name };
  if (typeof code === 'string' && CONNECTION.has(code)) return { fault: 'unavailable', reason: code };
  if ($fault === 'server' && ($metadata?.httpStatusCode ?? 0) >= 500) return { fault: 'unavailable', reason: `${name ?? 'Error'} ${$metadata?.httpStatusCode}` };
  return undefined;
};
