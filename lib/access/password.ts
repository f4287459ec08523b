import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** Shortest password accepted anywhere a password is set: length, not composition rules, is what makes a password hard to guess (OWASP ASVS 4.0 V2.1.1; DESIGN §5). */
export const PASSWORD_MIN_LENGTH = 12;
/** Longest: bounded like every string (D12); scrypt cost does not depend on it much. */
export const PASSWORD_MAX_LENGTH = 256;

/** OWASP Password Storage Cheat Sheet, scrypt: N=2^17, r=8, p=1. */
export const OWASP_SCRYPT = { logN: 17, r: 8, p: 1 } as const;

interface ScryptParams {
  logN: number;
  r: number;
  p: number;
}

const SALT_BYTES = 16;
const KEY_BYTES = 64;

/**
 * Cost of new hashes. Production default is OWASP's; PASSWORD_SCRYPT_LOG_N lowers it for
 * tests and local runs only (a hash at 2^17 costs ~0.3 s and 128 MiB).
 */
export const scryptParams = (env: NodeJS.ProcessEnv = process.env): ScryptParams => {
  const logN = env.PASSWORD_SCRYPT_LOG_N ? Number(env.PASSWORD_SCRYPT_LOG_N) : OWASP_SCRYPT.logN;
  if (!Number.isInteger(logN) || logN < 10 || logN > 20) throw new Error('PASSWORD_SCRYPT_LOG_N must be an integer 10..20');
  return { logN, r: OWASP_SCRYPT.r, p: OWASP_SCRYPT.p };
};

export const meetsOwasp = ({ logN, r, p }: ScryptParams): boolean =>
  logN >= OWASP_SCRYPT.logN && r >= OWASP_SCRYPT.r && p >= OWASP_SCRYPT.p;

const derive = (password: string, salt: Buffer, { logN, r, p }: ScryptParams): Promise<Buffer> => {
  const N = 2 ** logN;
  // scrypt needs 128 * N * r bytes; leave headroom over Node's 32 MiB default
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFKC'), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
};

/** `scrypt$<logN>$<r>$<p>$<salt b64>$<key b64>`: parameters travel with the hash. */
export const hashPassword = async (password: string, params = scryptParams()): Promise<string> => {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params);
  return ['scrypt', params.logN, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
};

const parse = (encoded: string) => {
  const [scheme, logN, r, p, salt, key] = encoded.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return undefined;
  const params = { logN: Number(logN), r: Number(r), p: Number(p) };
  if (![params.logN, params.r, params.p].every(Number.isInteger)) return undefined;
  return { params, salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') };
};

/** Constant-time comparison of the derived key with the stored one. */
export const verifyPassword = async (password: string, encoded: string): Promise<boolean> => {
  const stored = parse(encoded);
  if (!stored) return false;
  const key = await derive(password, stored.salt, stored.params);
  return key.length === stored.key.length && timingSafeEqual(key, stored.key);
};

let dummy: Promise<string> | undefined;

/**
 * Spends the same time as a real check, for an unknown user, so that timing does not
 * reveal which usernames exist. Always false.
 */
export const verifyAgainstNothing = async (password: string): Promise<false> => {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await dummy);
  return false;
};

