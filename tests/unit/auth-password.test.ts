import { describe, expect, it } from 'vitest';
import { hashPassword, meetsOwasp, OWASP_SCRYPT, PASSWORD_MIN_LENGTH, scryptParams, verifyAgainstNothing, verifyPassword } from '#lib/access/password';
import createUser from '#generated/validators/usersCreate';
import changeOwn from '#generated/validators/usersChangeOwnPassword';

const cheap = { logN: 10, r: 8, p: 1 };
const user = (password: unknown) => ({
  body: { username: 'someone', password, email: 'someone@example.com', name: 'Someone', role: 'viewer' },
});

describe('password hashing', () => {
  it('uses OWASP scrypt parameters (N=2^17, r=8, p=1) when PASSWORD_SCRYPT_LOG_N is unset', () => {
    const params = scryptParams({});
    expect(params).toEqual({ logN: 17, r: 8, p: 1 });
    expect(meetsOwasp(params)).toBe(true);
  });

  it('hashes at the production default and verifies within the configured memory limit', async () => {
    const hash = await hashPassword('production-cost-password', scryptParams({}));
    expect(hash.startsWith(`scrypt$${OWASP_SCRYPT.logN}$8$1$`)).toBe(true);
    expect(await verifyPassword('production-cost-password', hash)).toBe(true);
  }, 20_000);

  it('lets PASSWORD_SCRYPT_LOG_N lower the cost, and says that no longer meets OWASP', () => {
    const params = scryptParams({ PASSWORD_SCRYPT_LOG_N: '14' });
    expect(params.logN).toBe(14);
    expect(meetsOwasp(params)).toBe(false);
  });

  it('refuses a nonsensical cost setting', () => {
    expect(() => scryptParams({ PASSWORD_SCRYPT_LOG_N: 'x' })).toThrow(/PASSWORD_SCRYPT_LOG_N/);
    expect(() => scryptParams({ PASSWORD_SCRYPT_LOG_N: '4' })).toThrow(/PASSWORD_SCRYPT_LOG_N/);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('correct horse battery', cheap);
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
  });

  it('salts every hash, and the hash never contains the password', async () => {
    const [a, b] = await Promise.all([hashPassword('same-password-twice', cheap), hashPassword('same-password-twice', cheap)]);
    expect(a).not.toBe(b);
    expect(a).not.toContain('same-password-twice');
  });

  it('refuses a tampered or malformed stored hash', async () => {
    const hash = await hashPassword('tamper-proof-pass', cheap);
    const parts = hash.split('$');
    parts[5] = Buffer.alloc(64).toString('base64');
    expect(await verifyPassword('tamper-proof-pass', parts.join('$'))).toBe(false);
    expect(await verifyPassword('tamper-proof-pass', 'not-a-hash')).toBe(false);
  });

  it('checks something even for an unknown user, and always says no', async () => {
    expect(await verifyAgainstNothing('whatever-password')).toBe(false);
  });
});

describe('password policy (request schemas)', () => {
  it(`refuses a new password shorter than ${PASSWORD_MIN_LENGTH} characters, naming the field`, () => {
    expect(createUser(user('a'.repeat(PASSWORD_MIN_LENGTH - 1)))).toBe(false);
    expect(createUser.errors?.map((e) => e.instancePath)).toEqual(['/body/password']);
  });

  it(`accepts a new password of exactly ${PASSWORD_MIN_LENGTH} characters`, () => {
    expect(createUser(user('a'.repeat(PASSWORD_MIN_LENGTH)))).toBe(true);
  });

  it('bounds the password length', () => {
    expect(createUser(user('a'.repeat(257)))).toBe(false);
  });

  it('applies the same minimum to a changed password', () => {
    expect(changeOwn({ body: { currentPassword: 'x', newPassword: 'short' } })).toBe(false);
    expect(changeOwn({ body: { currentPassword: 'x', newPassword: 'long-enough-now' } })).toBe(true);
  });
});
