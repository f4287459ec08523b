/**
 * When a webhook delivery is tried again, so that a receiver that is down for a while still gets it: a 2xx is delivered; a 5xx, a 429,
 * a timeout or a failed connection is retried with exponential backoff and jitter for up to
 * 24 hours after the first attempt; any other answer (4xx, or a 3xx: redirects are not
 * followed) fails at once, as does a target that is no longer a public address.
 */
export type AttemptOutcome =
  | { kind: 'sent' }
  /** Nothing needed sending: the target already stood as the notification would leave it (an incident already resolved). */
  | { kind: 'unchanged' }
  | { kind: 'answered'; status: number; retryAfterSeconds?: number }
  | { kind: 'timeout' }
  | { kind: 'unreachable'; reason: string }
  | { kind: 'refused'; reason: string };

type Verdict = 'delivered' | 'retry' | 'fail';

export const verdictOf = (outcome: AttemptOutcome): Verdict => {
  if (outcome.kind === 'timeout' || outcome.kind === 'unreachable') return 'retry';
  if (outcome.kind === 'refused') return 'fail';
  if (outcome.kind === 'sent' || outcome.kind === 'unchanged') return 'delivered';
  if (outcome.status >= 200 && outcome.status < 300) return 'delivered';
  if (outcome.status >= 500 || outcome.status === 429) return 'retry';
  return 'fail';
};

export interface RetryPolicy {
  /** Delay after the first failed attempt; doubles after each further one. */
  baseMs: number;
  /** No single wait is longer than this. */
  maxDelayMs: number;
  /** No attempt starts later than this after the first one. */
  windowMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseMs: 30_000, maxDelayMs: 60 * 60_000, windowMs: 24 * 60 * 60_000 };

/**
 * When to try again after `attempts` failed attempts (1 = the first failed), or undefined when
 * the 24-hour window is spent. The delay is `base * 2^(attempts-1)`, capped, of which the upper
 * half is random ("equal jitter"): receivers that failed together do not retry together. A
 * `Retry-After` (429) is honoured when it asks for longer.
 */
export const nextAttemptAt = (input: {
  attempts: number;
  firstAttemptAt: number;
  now: number;
  policy?: RetryPolicy;
  retryAfterSeconds?: number;
  random?: () => number;
}): number | undefined => {
  const policy = input.policy ?? DEFAULT_RETRY;
  const random = input.random ?? Math.random;
  const exponential = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** Math.max(0, input.attempts - 1));
  const jittered = exponential / 2 + random() * (exponential / 2);
  const delay = Math.max(jittered, Math.min(policy.maxDelayMs, (input.retryAfterSeconds ?? 0) * 1000));
  const at = input.now + Math.round(delay);
  return at <= input.firstAttemptAt + policy.windowMs ? at : undefined;
};

/** NOTIFY_RETRY_BASE_SECONDS shortens the first delay (tests); the window stays 24 hours. */
export const retryPolicyFromEnv = (env: NodeJS.ProcessEnv = process.env): RetryPolicy => {
  const base = Number(env.NOTIFY_RETRY_BASE_SECONDS);
  return Number.isFinite(base) && base > 0 ? { ...DEFAULT_RETRY, baseMs: base * 1000 } : DEFAULT_RETRY;
};
