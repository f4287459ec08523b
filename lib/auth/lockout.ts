/**
 * Brute-force brake per username: after MAX_FAILURES failed sign-ins within WINDOW_SECONDS
 * (counted from the first failure), sign-in is refused with 429 until the window ends.
 * A successful sign-in clears the count.
 */
export const lockoutPolicy = (env: NodeJS.ProcessEnv = process.env) => ({
  maxFailures: Number(env.LOGIN_MAX_FAILURES ?? 5),
  windowSeconds: Number(env.LOGIN_WINDOW_SECONDS ?? 15 * 60),
});

/** Seconds the caller must wait, or 0 when sign-in may proceed. */
export const lockedForSeconds = (
  failures: { count: number; expiresAt: number } | undefined,
  maxFailures: number,
  nowSeconds = Math.floor(Date.now() / 1000),
): number => {
  if (!failures || failures.count < maxFailures || failures.expiresAt <= nowSeconds) return 0;
  return failures.expiresAt - nowSeconds;
};
