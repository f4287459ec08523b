import { LoginFailuresEntity, RevokedTokenEntity } from '#lib/access/entities';
import { expr } from '#lib/store/expression';
import { nowSeconds } from '#lib/store/table';

// Short-lived records with `expiresAt` (TTL in AWS). dynalite never expires them, so readers
// treat a past `expiresAt` as absent.

/** A password check may run (`windowEnd` names the window it counts in), or the budget is spent (`expiresAt`: when the window and any lock end). */
type Reservation = { granted: true; windowEnd: number } | { granted: false; window: ReturnType<typeof LoginFailuresEntity.fromItem> };

/** Revoked access tokens (logout), kept until the token would have expired anyway. */
export const revokedTokens = {
  async revoke(jti: string, expiresAt: number): Promise<void> {
    await RevokedTokenEntity.put(jti, { expiresAt });
  },

  async isRevoked(jti: string): Promise<boolean> {
    // strongly consistent (DESIGN §5): a token logged out a moment ago is refused everywhere at once
    const expiresAt = await RevokedTokenEntity.find(jti, { consistent: true });
    return expiresAt !== undefined && expiresAt > nowSeconds();
  },
};

// a reservation races at most a few window changes (open, expire); past that, answer "busy"
const MAX_RESERVE_ATTEMPTS = 4;

/** Password guesses per username in a fixed window, each check reserving a slot first (docs/guide/rules/access.md). */
export const loginFailures = {
  async reserve(username: string, maxFailures: number, windowSeconds: number): Promise<Reservation> {
    for (let attempt = 0; attempt < MAX_RESERVE_ATTEMPTS; attempt++) {
      const now = nowSeconds();
      // a slot in the open window, if one is left
      const slot = await LoginFailuresEntity.update(username, { increment: { count: 1 } }, expr('#expiresAt > :now AND #count < :max', { now, max: maxFailures }), 'ALL_NEW');
      if (slot) return { granted: true, windowEnd: Number(slot.expiresAt) };
      // no window, or an ended one: this guess opens the next
      const windowEnd = now + windowSeconds;
      const opened = await LoginFailuresEntity.update(
        username,
        { set: { count: 1, expiresAt: windowEnd, type: 'LoginFailures' } },
        expr('attribute_not_exists(PK) OR #expiresAt <= :now', { now }),
      );
      if (opened) return { granted: true, windowEnd };
      const window = await LoginFailuresEntity.find(username, { consistent: true });
      if (window && window.expiresAt > nowSeconds() && window.count >= maxFailures) return { granted: false, window };
      // the window moved between the two writes: try again
    }
    return { granted: false, window: { count: maxFailures, expiresAt: nowSeconds() + 1 } };
  },

  /** Gives back a slot taken by `reserve` (a right password), if its window is still the current one. */
  async release(username: string, windowEnd: number): Promise<void> {
    await LoginFailuresEntity.update(username, { increment: { count: -1 } }, expr('#expiresAt = :end AND #count > :zero', { end: windowEnd, zero: 0 }));
  },
};
