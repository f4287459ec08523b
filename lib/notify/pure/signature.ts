import { createHmac, randomBytes } from 'node:crypto';
import { sameSignature } from '#lib/shared/constantTime';

/** A fresh webhook signing secret: 32 random bytes, base64url (43 characters). */
export const newSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

/** How old a signed request a receiver should still accept, as the README advises (seconds). */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * `x-signature-256` of one attempt: `sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`, where
 * `timestamp` (Unix seconds, sent as `x-signature-timestamp`) is when the attempt was made. The
 * timestamp is signed with the body, so a receiver that refuses old ones cannot be replayed a
 * captured request later; every retry is signed anew.
 */
export const signatureOf = (secret: string, timestamp: number, body: string): string =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex')}`;

/**
 * What a receiver does: refuse a timestamp more than `toleranceSeconds` from its clock, then
 * recompute the signature over the timestamp and the raw body and compare in constant time.
 */
export const verifySignature = (
  secret: string,
  body: string,
  headers: { signature: string | undefined; timestamp: string | undefined },
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): boolean => {
  const timestamp = Number(headers.timestamp);
  if (!headers.signature || !/^\d{1,12}$/.test(headers.timestamp ?? '') || Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  return sameSignature(headers.signature, signatureOf(secret, timestamp, body));
};
