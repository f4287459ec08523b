import { loginFailures } from '#lib/access/repository/sessions';
import { TooManyRequests } from '#lib/shared/errors';
import { lockedForSeconds, lockoutPolicy } from './lockout';
import { apart } from '#lib/store/transaction';

/**
 * Runs one password check of `username` inside that username's guess budget (sign-in and the
 * own-password change share it). The guess is counted BEFORE the check, atomically, so that
 * however many run in parallel at most LOGIN_MAX_FAILURES are ever evaluated per window; past
 * that the answer is 429 with Retry-After, whether the password is right or not. `check`
 * answers what it verified, or undefined for a wrong password: a right one gives its slot
 * back (it never clears the slots of other guesses), a wrong one, or a check that failed,
 * keeps it.
 */
export const withinGuessBudget = async <T>(username: string, check: () => Promise<T | undefined>): Promise<T | undefined> => {
  const { maxFailures, windowSeconds } = lockoutPolicy();
  const reservation = await apart(() => loginFailures.reserve(username, maxFailures, windowSeconds));
  if (!reservation.granted) {
    throw new TooManyRequests('Too many failed password attempts; try again later', lockedForSeconds(reservation.window, maxFailures) || 1);
  }
  const verified = await check();
  if (verified !== undefined) await apart(() => loginFailures.release(username, reservation.windowEnd));
  return verified;
};
