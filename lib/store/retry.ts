// Throttled calls retried more often than other failures (DESIGN §3; docs/guide/rules/store.md "Throttled store calls are retried more than other failures").
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
