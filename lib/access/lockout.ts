/**
 * Brute-force brake per username: at most MAX_FAILURES wrong passwords (sign-in and own
 * password change together) are checked within WINDOW_SECONDS, counted from the first guess;
 * past that every attempt is 429 until the window ends (./guesses). A right password does
 * not clear the count.
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
