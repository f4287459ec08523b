import { createHash } from 'node:crypto';
import { COMMON_PASSWORD_FINGERPRINTS } from './commonPasswords';

/**
 * What a new password must not be (DESIGN §5; OWASP ASVS 4.0 V2.1): rules about its characters,
 * then a small strength estimate (the username, few different characters, repeats, runs of
 * the alphabet or a keyboard row), then the common-password list. Pure: answers the first rule
 * broken, as a message that names it, or undefined. Length (12..256) is the schema's. The rules run on the NFC form; the hash is taken
 * over NFKC (./password), of which NFC is a step, so equal NFC forms always verify alike.
 */

// fewer different characters than this is a pattern, not a secret ('aaaaaaaaaaaa', 12 spaces)
const MIN_DISTINCT = 5;
// share of neighbouring pairs that may be steps along the alphabet or a keyboard row
const MAX_SEQUENTIAL_SHARE = 0.75;
const KEYBOARD_ROWS = ['1234567890-=', 'qwertyuiop[]', 'asdfghjkl;\'', 'zxcvbnm,./', 'qwertzuiopü', 'azertyuiop', 'yxcvbnm'];

/** First 32 bits of SHA-256: how ./commonPasswords stores each entry (compact; not a secret). */
export const passwordFingerprint = (lowerNfc: string): number => createHash('sha256').update(lowerNfc).digest().readUInt32BE(0);

let common: ReadonlySet<number> | undefined;
/** The fingerprints of the common passwords of policy length (from a maintained list), unpacked on first use. */
const commonPasswordFingerprints = (): ReadonlySet<number> => {
  if (!common) {
    const bytes = Buffer.from(COMMON_PASSWORD_FINGERPRINTS, 'base64');
    common = new Set(Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readUInt32BE(i * 4)));
  }
  return common;
};

const characterRules: [RegExp, string][] = [
  [/\p{Cs}/u, 'must be well-formed Unicode (no lone surrogates)'],
  [/\p{Cc}/u, 'must not contain control characters'],
  // U+200D joins emoji sequences; a run of them alone fails the estimate anyway
  [/[^\P{Cf}\u200d]/u, 'must not contain invisible format characters (such as zero-width spaces)'],
  [/\p{Cn}/u, 'must not contain unassigned characters'],
];

const neighbours = (a: string, b: string): boolean => {
  const step = Math.abs((a.codePointAt(0) ?? 0) - (b.codePointAt(0) ?? 0));
  if (step <= 1) return true;
  return KEYBOARD_ROWS.some((row) => {
    const i = row.indexOf(a);
    return i >= 0 && (row[i + 1] === b || row[i - 1] === b);
  });
};

/** The share of neighbouring characters that are the same, next in the alphabet or next on a keyboard row. */
const sequentialShare = (chars: string[]): number => {
  let steps = 0;
  for (let i = 1; i < chars.length; i++) if (neighbours(chars[i - 1]!, chars[i]!)) steps++;
  return steps / Math.max(1, chars.length - 1);
};

const patternRules: [(password: string, chars: string[], username: string) => boolean, string][] = [
  [(p, _c, u) => u.length > 0 && p.toLowerCase().includes(u.toLowerCase()), 'must not contain the username'],
  [(_p, c) => new Set(c).size < MIN_DISTINCT, `must use at least ${MIN_DISTINCT} different characters`],
  [(p) => /^(.+)\1+$/su.test(p), 'must not be a shorter sequence repeated'],
  [(_p, c) => sequentialShare(c.map((x) => x.toLowerCase())) > MAX_SEQUENTIAL_SHARE, 'must not be a run of consecutive characters or keyboard keys'],
];

/** The pattern an NFC password falls into (the username, few characters, repeats, runs), or undefined. */
export const patternProblem = (normalized: string, username: string): string | undefined => {
  const chars = [...normalized];
  return patternRules.find(([broken]) => broken(normalized, chars, username))?.[1];
};

/** The problem with `password` as a new password of `username`, naming the rule, or undefined. */
export const passwordProblem = (password: string, username: string): string | undefined => {
  const character = characterRules.find(([pattern]) => pattern.test(password));
  if (character) return character[1];
  const normalized = password.normalize('NFC');
  const pattern = patternProblem(normalized, username);
  if (pattern) return pattern;
  return commonPasswordFingerprints().has(passwordFingerprint(normalized.toLowerCase())) ? 'is a commonly used password' : undefined;
};
