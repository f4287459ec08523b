import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh webhook signing secret: 32 random bytes, base64url (43 characters). */
export const newSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

/** `x-signature-256` of a body: `sha256=<hex HMAC-SHA256 of the raw body with the secret>`. */
export const signatureOf = (secret: string, body: string): string =>
  `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;

/** What a receiver does: recompute the signature over the raw body and compare in constant time. */
export const verifySignature = (secret: string, body: string, header: string | undefined): boolean => {
  if (!header) return false;
  const expected = Buffer.from(signatureOf(secret, body));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
};
