import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { Unauthorized } from '#lib/shared/errors';
import { checkKeyPair, issueAccessToken, parsePrivateKey } from '#lib/access/sign';
import { ACCESS_TOKEN_SECONDS, AUDIENCE, bearerToken, CLOCK_TOLERANCE_SECONDS, ISSUER } from '#lib/access/tokens';
import { parsePublicKey, verifyAccessToken } from '#lib/access/verify';

const pair = generateKeyPairSync('ed25519');
const other = generateKeyPairSync('ed25519');
const { privateKey, publicKey } = pair;
const user = { username: 'alice', role: 'viewer', incarnation: 'inc-1' };
const pem = (key: KeyObject) => key.export({ format: 'pem', type: key.type === 'private' ? 'pkcs8' : 'spki' }).toString();

/** A token with every claim right except what `change` alters. */
const craft = async (
  change: {
    alg?: string;
    typ?: string;
    iss?: string;
    aud?: string;
    iat?: number;
    exp?: number;
    key?: KeyObject | Uint8Array;
    claims?: Record<string, unknown>;
  } = {},
) => {
  const iat = change.iat ?? Math.floor(Date.now() / 1000);
  return new SignJWT({ role: 'admin', inc: 'inc-1', ...change.claims })
    .setProtectedHeader({ alg: change.alg ?? 'EdDSA', typ: change.typ ?? 'at+jwt' })
    .setSubject('alice')
    .setJti('jti-1')
    .setIssuedAt(iat)
    .setExpirationTime(change.exp ?? iat + 60)
    .setIssuer(change.iss ?? ISSUER)
    .setAudience(change.aud ?? AUDIENCE)
    .sign(change.key ?? privateKey);
};

describe('access tokens', () => {
  it('issues a token whose claims verify with the public key: sub, role, jti, iat, exp 15 minutes later', async () => {
    const { token, claims } = await issueAccessToken(privateKey, user);
    const verified = await verifyAccessToken(publicKey, token);
    expect(verified).toEqual(claims);
    expect(verified).toMatchObject({ sub: 'alice', role: 'viewer' });
    expect(verified.exp - verified.iat).toBe(ACCESS_TOKEN_SECONDS);
  });

  it('signs with EdDSA and types the token at+jwt', async () => {
    const { token } = await issueAccessToken(privateKey, user);
    const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as Record<string, unknown>;
    expect(header).toEqual({ alg: 'EdDSA', typ: 'at+jwt' });
  });

  it('gives every token its own jti', async () => {
    const [a, b] = await Promise.all([issueAccessToken(privateKey, user), issueAccessToken(privateKey, user)]);
    expect(a.claims.jti).not.toBe(b.claims.jti);
  });

  it('refuses a forged token (signed with another Ed25519 key)', async () => {
    await expect(verifyAccessToken(publicKey, await craft({ key: other.privateKey }))).rejects.toBeInstanceOf(Unauthorized);
  });

  it('refuses a token whose payload was altered after signing', async () => {
    const [header, , signature] = (await craft()).split('.');
    const payload = Buffer.from(JSON.stringify({ sub: 'root', role: 'admin' })).toString('base64url');
    await expect(verifyAccessToken(publicKey, `${header}.${payload}.${signature}`)).rejects.toBeInstanceOf(Unauthorized);
  });

  it('refuses an expired token', async () => {
    const { token } = await issueAccessToken(privateKey, user, Date.now() - (ACCESS_TOKEN_SECONDS + 60) * 1000);
    await expect(verifyAccessToken(publicKey, token)).rejects.toThrow('Invalid or expired token');
  });

  it.each([
    ['the public key PEM', () => Buffer.from(pem(publicKey))],
    ['the public key DER', () => publicKey.export({ format: 'der', type: 'spki' })],
    ['the raw public key bytes', () => Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url')],
  ])('refuses an HS256 token whose HMAC secret is %s (algorithm confusion)', async (_case, secret) => {
    const token = await craft({ alg: 'HS256', key: new Uint8Array(secret()) });
    await expect(verifyAccessToken(publicKey, token)).rejects.toBeInstanceOf(Unauthorized);
  });

  it('refuses an unsigned token (alg none)', async () => {
    const token = new UnsecuredJWT({ role: 'admin', inc: 'inc-1' })
      .setSubject('alice')
      .setJti('j')
      .setIssuedAt()
      .setExpirationTime('1h')
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .encode();
    await expect(verifyAccessToken(publicKey, token)).rejects.toBeInstanceOf(Unauthorized);
  });

  it('refuses a correctly signed token whose header names another algorithm than EdDSA (the pin)', async () => {
    // jose also accepts "Ed25519" (RFC 9864) for the same key: only the pinned list refuses it
    await expect(verifyAccessToken(publicKey, await craft({ alg: 'Ed25519' }))).rejects.toBeInstanceOf(Unauthorized);
  });

  it('refuses a token signed with another asymmetric algorithm (ES256)', async () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    await expect(verifyAccessToken(publicKey, await craft({ alg: 'ES256', key: ec.privateKey }))).rejects.toBeInstanceOf(Unauthorized);
  });

  it.each([
    ['another issuer', { iss: 'someone-else' }],
    ['another audience', { aud: 'another-api' }],
    ['another token type', { typ: 'JWT' }],
    ['no role claim', { claims: { role: undefined } }],
    ['no incarnation', { claims: { inc: undefined } }],
  ])('refuses a token with %s', async (_case, change) => {
    await expect(verifyAccessToken(publicKey, await craft(change))).rejects.toBeInstanceOf(Unauthorized);
  });

  it('carries the incarnation of the user it was issued to', async () => {
    const { token } = await issueAccessToken(privateKey, user);
    expect((await verifyAccessToken(publicKey, token)).inc).toBe('inc-1');
  });

  it('refuses a token issued in the future beyond the clock tolerance, and accepts one within it', async () => {
    const now = Math.floor(Date.now() / 1000);
    const ahead = (seconds: number) => craft({ iat: now + seconds, exp: now + seconds + 60 });
    await expect(verifyAccessToken(publicKey, await ahead(CLOCK_TOLERANCE_SECONDS + 5))).rejects.toBeInstanceOf(Unauthorized);
    await expect(verifyAccessToken(publicKey, await ahead(3600))).rejects.toBeInstanceOf(Unauthorized);
    await expect(verifyAccessToken(publicKey, await ahead(CLOCK_TOLERANCE_SECONDS - 2))).resolves.toMatchObject({ sub: 'alice' });
  });

  it('refuses a token whose lifetime exceeds the configured one, even if not yet expired', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect(verifyAccessToken(publicKey, await craft({ iat: now, exp: now + ACCESS_TOKEN_SECONDS + 1 }))).rejects.toBeInstanceOf(Unauthorized);
    await expect(verifyAccessToken(publicKey, await craft({ iat: now - 10, exp: now + 365 * 86400 }))).rejects.toBeInstanceOf(Unauthorized);
    await expect(verifyAccessToken(publicKey, await craft({ iat: now, exp: now + ACCESS_TOKEN_SECONDS }))).resolves.toMatchObject({ sub: 'alice' });
  });
});

describe('token keys', () => {
  it('reads PEM keys, also with escaped newlines, and JWK keys', () => {
    const publicPem = pem(publicKey);
    const expected = publicKey.export({ format: 'jwk' });
    expect(parsePublicKey(publicPem).export({ format: 'jwk' })).toEqual(expected);
    expect(parsePublicKey(publicPem.replace(/\n/g, '\\n')).export({ format: 'jwk' })).toEqual(expected);
    expect(parsePublicKey(JSON.stringify(expected)).export({ format: 'jwk' })).toEqual(expected);
    expect(parsePrivateKey(pem(privateKey)).export({ format: 'jwk' })).toEqual(privateKey.export({ format: 'jwk' }));
  });

  it('refuses keys that are not Ed25519', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(() => parsePublicKey(pem(ec.publicKey))).toThrow(/Ed25519/);
    expect(() => parsePrivateKey(pem(ec.privateKey))).toThrow(/Ed25519/);
  });

  it('refuses a private key that does not belong to the configured public key', () => {
    expect(() => checkKeyPair(privateKey, pem(publicKey))).not.toThrow();
    expect(() => checkKeyPair(privateKey, pem(other.publicKey))).toThrow(/does not match/);
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
