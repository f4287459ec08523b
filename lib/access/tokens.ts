import { Unauthorized } from '#lib/shared/errors';

/**
 * The access-token format, shared by the functions that sign (sign-in and the service token
 * exchange, `./sign`) and every function that verifies (`./verify`). Nothing here touches keys or AWS.
 */

/** Access tokens live 15 minutes; the sign-in answer states it as `expiresIn` (seconds). */
export const ACCESS_TOKEN_SECONDS = 15 * 60;
export const ISSUER = 'device-monitoring';
export const AUDIENCE = 'device-monitoring-api';
// RFC 8725 §3.11 explicit typing: an access token is never confused with another JWT
export const TOKEN_TYPE = 'at+jwt';
/** Ed25519 signatures (RFC 8037): only sign-in and the service token exchange hold the private key, everyone else the public one. */
export const ALGORITHM = 'EdDSA';
/**
 * Clock skew allowed between the signing and the verifying containers: a token may expire up
 * to this much late, and its `iat` may lie up to this much in the future; beyond, it is refused.
 */
export const CLOCK_TOLERANCE_SECONDS = 5;

export interface AccessClaims {
  sub: string;
  role: string;
  jti: string;
  iat: number;
  exp: number;
  /** The user's incarnation at issue (lib/access/repository/users): refused once the user is re-created or changes password. */
  inc: string;
  /** `service` for a registered service's token (`sub` is its id); absent for a user's. */
  kind?: 'service';
}

/** `Authorization: Bearer <token>` -> the token, or 401. */
export const bearerToken = (header: string | undefined): string => {
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]{1,4096})\s*$/i.exec(header ?? '');
  if (!match?.[1]) throw new Unauthorized('A bearer token is required');
  return match[1];
};

/**
 * Key text as configured: a PEM (literal `\n` escapes accepted, as CI secrets and `.env`
 * files often store them) or a JWK in JSON.
 */
export const keyInput = (text: string): { key: string; format: 'pem' } | { key: Record<string, unknown>; format: 'jwk' } => {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) return { key: JSON.parse(trimmed) as Record<string, unknown>, format: 'jwk' };
  return { key: trimmed.replace(/\\n/g, '\n'), format: 'pem' };
};
