import { describe, expect, it } from 'vitest';
import { hashServiceSecret, newServiceSecret, serviceSecretMatches } from '#lib/access/serviceSecrets';

describe('client secrets of registered services', () => {
  it('are 256 random bits, different every time, stored as a SHA-256 hash that does not contain them', () => {
    const first = newServiceSecret();
    const second = newServiceSecret();
    expect(Buffer.from(first.secret, 'base64url')).toHaveLength(32);
    expect(first.secret).not.toBe(second.secret);
    expect(first.hash).toMatch(/^sha256\$[A-Za-z0-9_-]{43}$/);
    expect(first.hash).not.toContain(first.secret);
    expect(first.hash).toBe(hashServiceSecret(first.secret));
  });

  it('match only the secret they were made from', () => {
    const { secret, hash } = newServiceSecret();
    expect(serviceSecretMatches(secret, hash)).toBe(true);
    expect(serviceSecretMatches(`${secret}x`, hash)).toBe(false);
    expect(serviceSecretMatches(newServiceSecret().secret, hash)).toBe(false);
  });

  it.each([[undefined], [''], ['scrypt$abc'], ['sha256$short']])('never match a stored hash of %j (no secret issued, unknown id)', (stored) => {
    expect(serviceSecretMatches('anything', stored)).toBe(false);
    expect(serviceSecretMatches('', stored)).toBe(false);
  });
});
