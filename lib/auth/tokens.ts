import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { Unauthorized } from '#lib/errors';

/** Access tokens live 15 minutes; the sign-in answer states it as `expiresIn` (seconds). */
export const ACCESS_TOKEN_SECONDS = 15 * 60;
export const ISSUER = 'device-monitoring';
export const AUDIENCE = 'device-monitoring-api';
// RFC 8725 §3.11 explicit typing: an access token is never confused with another JWT
const TYPE = 'at+jwt';
const ALGORITHM = 'HS256';
const CLOCK_TOLERANCE_SECONDS = 5;
/** HS256 keys must be at least as long as the hash (RFC 7518 §3.2). */
export const MIN_SECRET_BYTES = 32;

export interface AccessClaims {
  sub: string;
  role: string;
  jti: string;
  iat: number;
  exp: number;
  /** Issue time in milliseconds: password changes refuse older tokens, even within the same second. */
  iat_ms: number;
}

export const signingKey = (secret: string): Uint8Array => {
  const key = new TextEncoder().encode(secret);
  if (key.length < MIN_SECRET_BYTES) throw new Error(`the token secret must be at least ${MIN_SECRET_BYTES} bytes`);
  return key;
};

export const issueAccessToken = async (
  key: Uint8Array,
  user: { username: string; role: string },
  now = Date.now(),
): Promise<{ token: string; claims: AccessClaims }> => {
  const iat = Math.floor(now / 1000);
  const claims: AccessClaims = {
    sub: user.username,
    role: user.role,
    jti: randomUUID(),
    iat,
    exp: iat + ACCESS_TOKEN_SECONDS,
    iat_ms: now,
  };
  const token = await new SignJWT({ role: claims.role, iat_ms: claims.iat_ms })
    .setProtectedHeader({ alg: ALGORITHM, typ: TYPE })
    .setSubject(claims.sub)
    .setJti(claims.jti)
    .setIssuedAt(claims.iat)
    .setExpirationTime(claims.exp)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .sign(key);
  return { token, claims };
};

const isString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * Checks signature, algorithm (HS256 only: no `none`, no algorithm confusion), type,
 * issuer, audience, expiry and the claims this service needs (RFC 8725). Any failure is
 * the same 401: a client learns nothing about why a token was refused.
 */
export const verifyAccessToken = async (key: Uint8Array, token: string, now = Date.now()): Promise<AccessClaims> => {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: [ALGORITHM],
      typ: TYPE,
      issuer: ISSUER,
      audience: AUDIENCE,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: new Date(now),
      requiredClaims: ['sub', 'jti', 'iat', 'exp'],
    });
    const { sub, jti, iat, exp, role, iat_ms } = payload;
    if (!isString(sub) || !isString(jti) || !isString(role) || !isNumber(iat) || !isNumber(exp) || !isNumber(iat_ms)) {
      throw new Unauthorized('Invalid or expired token');
    }
    return { sub, jti, iat, exp, role, iat_ms };
  } catch (error) {
    if (error instanceof errors.JOSEError || error instanceof Unauthorized) throw new Unauthorized('Invalid or expired token');
    throw error;
  }
};

/** `Authorization: Bearer <token>` -> the token, or 401. */
export const bearerToken = (header: string | undefined): string => {
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]{1,4096})\s*$/i.exec(header ?? '');
  if (!match?.[1]) throw new Unauthorized('A bearer token is required');
  return match[1];
};
