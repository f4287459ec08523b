import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { Unauthorized } from '#lib/errors';
import { ACCESS_TOKEN_SECONDS, AUDIENCE, bearerToken, issueAccessToken, ISSUER, signingKey, verifyAccessToken } from '#lib/auth/tokens';

const key = signingKey('k'.repeat(48));
const otherKey = signingKey('o'.repeat(48));
const user = { username: 'alice', role: 'viewer' };

/** A token with every claim right except what `change` alters. */
const craft = async (
  change: { alg?: string; typ?: string; iss?: string; aud?: string; exp?: number; key?: Uint8Array; claims?: Record<string, unknown> } = {},
) => {
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({ role: 'admin', iat_ms: Date.now(), ...change.claims })
    .setProtectedHeader({ alg: change.alg ?? 'HS256', typ: change.typ ?? 'at+jwt' })
    .setSubject('alice')
    .setJti('jti-1')
    .setIssuedAt(iat)
    .setExpirationTime(change.exp ?? iat + 60)
    .setIssuer(change.iss ?? ISSUER)
    .setAudience(change.aud ?? AUDIENCE)
    .sign(change.key ?? key);
};

describe('access tokens', () => {
  it('issues a token whose claims verify: sub, role, jti, iat, exp 15 minutes later', async () => {
    const { token, claims } = await issueAccessToken(key, user);
    const verified = await verifyAccessToken(key, token);
    expect(verified).toEqual(claims);
    expect(verified).toMatchObject({ sub: 'alice', role: 'viewer' });
    expect(verified.exp - verified.iat).toBe(ACCESS_TOKEN_SECONDS);
  });

  it('gives every token its own jti', async () => {
    const [a, b] = await Promise.all([issueAccessToken(key, user), issueAccessToken(key, user)]);
    expect(a.claims.jti).not.toBe(b.claims.jti);
  });

  it('refuses a forged token (signed with another key)', async () => {
    await expect(verifyAccessToken(key, await craft({ key: otherKey }))).rejects.toBeInstanceOf(Unauthorized);
  });

  it('refuses a token whose payload was altered after signing', async () => {
    const [header, , signature] = (await craft()).split('.');
    const payload = Buffer.from(JSON.stringify({ sub: 'root', role: 'admin' })).toString('base64url');
    await expect(verifyAccessToken(key, `${header}.${payload}.${signature}`)).rejects.toBeInstanceOf(Unauthorized);
  });

  it('refuses an expired token', async () => {
    const { token } = await issueAccessToken(key, user, Date.now() - (ACCESS_TOKEN_SECONDS + 60) * 1000);
    await expect(verifyAccessToken(key, token)).rejects.toThrow('Invalid or expired token');
  });

  it('refuses a token signed with another algorithm (HS512, same key)', async () => {
    await expect(verifyAccessToken(key, await craft({ alg: 'HS512' }))).rejects.toBeInstanceOf(Unauthorized);
  });

  it('refuses an unsigned token (alg none)', async () => {
    const token = new UnsecuredJWT({ role: 'admin', iat_ms: Date.now() })
      .setSubject('alice')
      .setJti('j')
      .setIssuedAt()
      .setExpirationTime('1h')
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .encode();
    await expect(verifyAccessToken(key, token)).rejects.toBeInstanceOf(Unauthorized);
  });

  it.each([
    ['another issuer', { iss: 'someone-else' }],
    ['another audience', { aud: 'another-api' }],
    ['another token type', { typ: 'JWT' }],
    ['no role claim', { claims: { role: undefined } }],
    ['no millisecond issue time', { claims: { iat_ms: undefined } }],
  ])('refuses a token with %s', async (_case, change) => {
    await expect(verifyAccessToken(key, await craft(change))).rejects.toBeInstanceOf(Unauthorized);
  });

  it('refuses a signing secret shorter than 32 bytes', () => {
    expect(() => signingKey('short')).toThrow(/at least 32 bytes/);
  });
});

describe('bearer header', () => {
  it('takes the token from "Bearer <token>" in any case', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer abc.def.ghi')).toBe('abc.def.ghi');
  });

  it.each([undefined, '', 'Basic dXNlcjpwYXNz', 'Bearer', 'Bearer a b'])('answers 401 for %j', (header) => {
    expect(() => bearerToken(header)).toThrow(Unauthorized);
  });
});
