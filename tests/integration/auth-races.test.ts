import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';

// Issue 12: the account group under real parallel calls against the embedded store.
const keyPair = generateKeyPairSync('ed25519', {
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
Object.assign(process.env, { JWT_PRIVATE_KEY: keyPair.privateKey, JWT_PUBLIC_KEY: keyPair.publicKey, PASSWORD_SCRYPT_LOG_N: '12' });

const { changeOwnPassword, createUser } = await import('#lib/auth/accounts');
const { signIn } = await import('#lib/auth/signin');
const { TooManyRequests, Unauthorized } = await import('#lib/errors');

const PASSWORD = 'Quiet-harbour-lantern-47';
const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
const newUser = async (role = 'viewer') => {
  const username = unique('user');
  await createUser({ username, email: `${username}@example.com`, name: 'Race', role }, PASSWORD);
  return username;
};
/** Settles every call and tells how each ended: 'ok', or the error's class name. */
const outcomes = async (calls: Promise<unknown>[]) =>
  (await Promise.allSettled(calls)).map((r) => (r.status === 'fulfilled' ? 'ok' : (r.reason as Error).constructor.name));
const tally = (results: string[]) => results.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r]: (acc[r] ?? 0) + 1 }), {});

describe('guess budget of sign-in (item 2)', () => {
  it('evaluates exactly 5 of 25 parallel wrong passwords; the other 20 are 429', async () => {
    const username = await newUser();
    const results = await outcomes(Array.from({ length: 25 }, () => signIn(username, 'wrong-password-xx')));
    expect(tally(results)).toEqual({ Unauthorized: 5, TooManyRequests: 20 });
    await expect(signIn(username, PASSWORD)).rejects.toBeInstanceOf(TooManyRequests);
  });

  it('a right password inside a parallel burst frees no slot for the wrong ones', async () => {
    const username = await newUser();
    const calls = Array.from({ length: 24 }, (_, i) => signIn(username, i === 12 ? PASSWORD : 'wrong-password-xx'));
    const results = tally(await outcomes(calls));
    // wrong guesses keep their slots; the right one only gives back its own
    expect(results.Unauthorized ?? 0).toBeLessThanOrEqual(5);
    expect(results.TooManyRequests ?? 0).toBeGreaterThanOrEqual(18);
  });

  it('a right password neither clears the failures nor uses up the budget', async () => {
    const username = await newUser();
    for (let i = 0; i < 4; i++) await expect(signIn(username, 'wrong-password-xx')).rejects.toBeInstanceOf(Unauthorized);
    await expect(signIn(username, PASSWORD)).resolves.toMatchObject({ tokenType: 'Bearer' });
    await expect(signIn(username, PASSWORD)).resolves.toMatchObject({ tokenType: 'Bearer' });
    await expect(signIn(username, 'wrong-password-xx')).rejects.toBeInstanceOf(Unauthorized);
    await expect(signIn(username, PASSWORD)).rejects.toBeInstanceOf(TooManyRequests);
  });

  it('counts guesses for unknown usernames the same way', async () => {
    const ghost = unique('ghost');
    const results = await outcomes(Array.from({ length: 12 }, () => signIn(ghost, 'wrong-password-xx')));
    expect(tally(results)).toEqual({ Unauthorized: 5, TooManyRequests: 7 });
  });
});

describe('guess budget of the own-password change (item 3)', () => {
  it('evaluates at most 5 of 20 parallel wrong current passwords; then even the right one is 429, and sign-in too', async () => {
    const username = await newUser();
    const results = await outcomes(Array.from({ length: 20 }, () => changeOwnPassword(username, 'wrong-password-xx', 'Brand-new-lantern-48')));
    expect(tally(results)).toEqual({ Unauthorized: 5, TooManyRequests: 15 });
    await expect(changeOwnPassword(username, PASSWORD, 'Brand-new-lantern-48')).rejects.toBeInstanceOf(TooManyRequests);
    await expect(signIn(username, PASSWORD)).rejects.toBeInstanceOf(TooManyRequests);
  });

  it('shares one budget with sign-in, sequentially too', async () => {
    const username = await newUser();
    for (let i = 0; i < 3; i++) await expect(signIn(username, 'wrong-password-xx')).rejects.toBeInstanceOf(Unauthorized);
    for (let i = 0; i < 2; i++) {
      await expect(changeOwnPassword(username, 'wrong-password-xx', 'Brand-new-lantern-48')).rejects.toBeInstanceOf(Unauthorized);
    }
    await expect(changeOwnPassword(username, PASSWORD, 'Brand-new-lantern-48')).rejects.toBeInstanceOf(TooManyRequests);
  });
});
