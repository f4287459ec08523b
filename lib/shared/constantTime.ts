import { timingSafeEqual } from 'node:crypto';

/**
 * Whether a signature a request carries is the one we computed, compared in constant time: how
 * long the comparison takes says nothing of how much of a forgery was right. Lengths differ only
 * for a malformed value (every signature we compute has one length), which teaches nothing.
 */
export const sameSignature = (given: string, expected: string): boolean => {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
};
