/*
 * How the store client retries (DESIGN §3: throttling is normal on DynamoDB). Throttled calls
 * (`ProvisionedThroughputExceededException`, `ThrottlingException`, ...) get up to
 * THROTTLED_ATTEMPTS attempts with capped exponential backoff and full jitter from 100 ms:
 * at 3% throttled, a call then fails once in 1.4 billion instead of once in 37,000 with three.
 * Other retryable failures (timeouts, 5xx) keep OTHER_ATTEMPTS, so a store that hangs still
 * answers a request path 503 well inside its function's timeout. The SDK's own standard strategy
 * retries every kind alike; this is its interface (RetryStrategyV2), typed here structurally.
 */
export const THROTTLED_ATTEMPTS = 6;
export const OTHER_ATTEMPTS = 3;
const BASE_MS = 100;
const CAP_MS = 3_000;

type ErrorType = 'TRANSIENT' | 'THROTTLING' | 'SERVER_ERROR' | 'CLIENT_ERROR';
interface RetryToken {
  getRetryCount(): number;
  getRetryDelay(): number;
}
interface RetryErrorInfo {
  errorType: ErrorType;
  retryAfterHint?: Date;
}

const token = (retries: number, delay: number): RetryToken => ({ getRetryCount: () => retries, getRetryDelay: () => delay });

/** The pause before retry number `retry` (1-based): full jitter under a capped exponential. */
export const retryDelay = (retry: number, random = Math.random): number => Math.floor(random() * Math.min(CAP_MS, BASE_MS * 2 ** retry));

export const storeRetryStrategy = {
  mode: 'standard' as const,
  acquireInitialRetryToken: async (_scope: string): Promise<RetryToken> => token(0, 0),
  refreshRetryTokenForRetry: async (previous: RetryToken, error: RetryErrorInfo): Promise<RetryToken> => {
    const retries = previous.getRetryCount() + 1;
    const limit = error.errorType === 'THROTTLING' ? THROTTLED_ATTEMPTS : OTHER_ATTEMPTS;
    if (error.errorType === 'CLIENT_ERROR' || retries >= limit) throw new Error('no retry left');
    return token(retries, retryDelay(retries));
  },
  recordSuccess: (_token: RetryToken): void => undefined,
};
