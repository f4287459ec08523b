import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Client secrets of registered services (DESIGN §5; docs/guide/rules/access.md "A service's client secret is 256 random bits, stored as a SHA-256 hash, shown once"). A secret is 256 random bits,
 * so a plain SHA-256 hash stored in its place is as hard to reverse as guessing the secret:
 * no slow KDF, no salt (nothing to precompute against). Checked in constant time.
 */

const SCHEME = 'sha256$';
const SECRET_BYTES = 32;

export const hashServiceSecret = (secret: string): string => SCHEME + createHash('sha256').update(secret, 'utf8').digest('base64url');

/** A new secret, answered once, and the hash stored in its place. */
export const newServiceSecret = (): { secret: string; hash: string } => {
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  return { secret, hash: hashServiceSecret(secret) };
};

/**
 * Whether `secret` is the one `stored` is the hash of. An empty or foreign `stored` (a service
 * without a secret, an unknown id) is compared all the same and answers false, so neither
 * answers faster than a wrong secret.
 */
export const serviceSecretMatches = (secret: string, stored: string | undefined): boolean => {
  const known = stored?.startsWith(SCHEME) ?? false;
  const expected = known ? Buffer.from(stored!.slice(SCHEME.length), 'base64url') : Buffer.alloc(32);
  const actual = createHash('sha256').update(secret, 'utf8').digest();
  return expected.length === actual.length && timingSafeEqual(actual, expected) && known;
};
