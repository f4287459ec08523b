import { createPrivateKey, randomUUID } from 'node:crypto';
import { SignJWT, decodeJwt } from 'jose';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from '../support/api';

// Issue 12: what an attacker found in the account group (tokens, guesses, races), over HTTP.
const BASE = '/api/authService';
const admin = inject('admin');
const PASSWORD = 'Quiet-harbour-lantern-47';
const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
const call = (method: string, path: string, options: Parameters<typeof api>[2] = {}) => api(method, `${BASE}${path}`, options);

const signIn = async (username: string, password = PASSWORD): Promise<string> => {
  const res = await call('POST', '/auth/signin', { body: { username, password } });
  expect(res.status).toBe(200);
  return (res.body as { accessToken: string }).accessToken;
};

let adminToken: string;
const createUser = async (role = 'viewer', username = unique('sec')) => {
  const body = { username, password: PASSWORD, email: `${username}@example.com`, name: 'Sec', role };
  const res = await call('POST', '/auth', { token: adminToken, body });
  expect(res.status).toBe(201);
  return username;
};

beforeAll(async () => {
  adminToken = await signIn(admin.username, admin.password);
});

describe('a token belongs to one incarnation of its user (item 1)', () => {
  it('a deleted and re-created username (now admin) does not revive the old token', async () => {
    const username = await createUser('viewer');
    const old = await signIn(username);
    expect((await call('DELETE', `/auth/${username}`, { token: adminToken })).status).toBe(200);
    expect((await call('GET', '/auth/me', { token: old })).status).toBe(401);
    await createUser('admin', username);
    expect((await call('GET', '/auth/me', { token: old })).status).toBe(401);
    expect((await call('GET', '/auth/all', { token: old })).status).toBe(401);
    expect((await call('GET', '/auth/all', { token: await signIn(username) })).status).toBe(200);
  });
});

describe('token issue time and lifetime (item 11)', () => {
  const key = () => createPrivateKey(inject('tokenPrivateKey'));
  /** The claims of a real token, re-signed by the server's own key with `iat`/`exp` changed. */
  const resign = async (token: string, change: { iat?: number; exp?: number }) => {
    const { iat, exp, ...claims } = decodeJwt(token);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt' })
      .setIssuedAt(change.iat ?? iat!)
      .setExpirationTime(change.exp ?? exp!)
      .sign(key());
  };
  let token: string;
  beforeAll(async () => {
    token = await signIn(await createUser());
  });

  it('accepts the same claims re-signed unchanged (the crafting is sound)', async () => {
    expect((await call('GET', '/auth/me', { token: await resign(token, {}) })).status).toBe(200);
  });

  it('refuses a token issued a minute in the future (5 s of clock skew allowed)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const res = await call('GET', '/auth/me', { token: await resign(token, { iat: now + 60, exp: now + 600 }) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Invalid or expired token' });
  });

  it('refuses a token meant to live longer than 15 minutes', async () => {
    const now = Math.floor(Date.now() / 1000);
    const res = await call('GET', '/auth/me', { token: await resign(token, { iat: now, exp: now + 30 * 24 * 3600 }) });
    expect(res.status).toBe(401);
  });
});

const statusTally = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe('guesses are counted before the password is checked (items 2 and 3)', () => {
  it('POST auth/signin: of 25 parallel wrong passwords exactly 5 are checked (401), 20 are 429; then the right one is 429', async () => {
    const username = await createUser();
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => call('POST', '/auth/signin', { body: { username, password: 'Wrong-guess-lantern-1' } })),
    );
    expect(statusTally(answers.map((a) => a.status))).toEqual({ 401: 5, 429: 20 });
    const right = await call('POST', '/auth/signin', { body: { username, password: PASSWORD } });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('POST auth/signin: a right password inside the burst lets no more than 5 wrong ones through', async () => {
    const username = await createUser();
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        call('POST', '/auth/signin', { body: { username, password: i === 8 ? PASSWORD : 'Wrong-guess-lantern-1' } }),
      ),
    );
    const tally = statusTally(answers.map((a) => a.status));
    expect(tally[401] ?? 0).toBeLessThanOrEqual(5);
    expect(tally[429] ?? 0).toBeGreaterThanOrEqual(18);
  });

  it('POST auth/me/password: a stolen token buys 5 guesses of the current password, then 429 even for the right one', async () => {
    const username = await createUser();
    const token = await signIn(username);
    const guess = (currentPassword: string) =>
      call('POST', '/auth/me/password', { token, body: { currentPassword, newPassword: 'Taken-over-lantern-99' } });
    const sequential = [];
    for (let i = 0; i < 3; i++) sequential.push((await guess(`Wrong-guess-${i}-lantern`)).status);
    expect(sequential).toEqual([401, 401, 401]);
    const parallel = await Promise.all(Array.from({ length: 17 }, (_, i) => guess(`Parallel-guess-${i}-lantern`)));
    expect(statusTally(parallel.map((a) => a.status))).toEqual({ 401: 2, 429: 15 });
    expect((await guess(PASSWORD)).status).toBe(429);
    // the same budget guards sign-in; the account was not taken over
    expect((await call('POST', '/auth/signin', { body: { username, password: 'Taken-over-lantern-99' } })).status).toBe(429);
    expect((await call('GET', '/auth/me', { token })).status).toBe(200);
  });
});

describe('the configured first admin is created once (item 4)', () => {
  it('after it was deleted on purpose, signing in with the startup password does not create it again', async () => {
    const other = await createUser('admin');
    const otherToken = await signIn(other);
    expect((await call('DELETE', `/auth/${admin.username}`, { token: otherToken })).status).toBe(200);
    try {
      const res = await call('POST', '/auth/signin', { body: { username: admin.username, password: admin.password } });
      expect(res.status).toBe(401);
      expect((await call('GET', `/auth/${admin.username}`, { token: otherToken })).status).toBe(404);
    } finally {
      // the rest of the suite signs in as the configured admin: put it back as an ordinary admin
      const body = { username: admin.username, password: admin.password, email: 'e2e-admin@example.com', name: 'Admin', role: 'admin' };
      expect((await call('POST', '/auth', { token: otherToken, body })).status).toBe(201);
      adminToken = await signIn(admin.username, admin.password);
    }
  });
});

describe('a role a user holds is never deleted, even in a race (item 5)', () => {
  it('creating users with role R while deleting R in parallel never leaves a user whose role is gone (8 runs)', async () => {
    for (let run = 0; run < 8; run++) {
      const { body: role } = await call('POST', '/role', { token: adminToken, body: { name: unique('race') } });
      const { roleid } = role as { roleid: string };
      const user = (username: string) => ({ username, password: PASSWORD, email: `${username}@example.com`, name: 'Race', role: roleid });
      const names = [unique('racer'), unique('racer')];
      const [created1, removed, created2] = await Promise.all([
        call('POST', '/auth', { token: adminToken, body: user(names[0]!) }),
        call('DELETE', `/role/${roleid}`, { token: adminToken }),
        call('POST', '/auth', { token: adminToken, body: user(names[1]!) }),
      ]);
      const createdAny = created1!.status === 201 || created2!.status === 201;
      expect([200, 409]).toContain(removed!.status);
      for (const answer of [created1!, created2!]) expect([201, 400]).toContain(answer.status);
      // deleted role => no user was created with it; a created user => the role is still there
      if (removed!.status === 200) expect(createdAny).toBe(false);
      if (createdAny) expect((await call('GET', `/role/${roleid}`, { token: adminToken })).status).toBe(200);
    }
  });
});

describe('weak passwords are refused with 400 naming the rule (item 10)', () => {
  const cases: [string, (username: string) => string, string][] = [
    ['twelve spaces', () => ' '.repeat(12), 'must use at least 5 different characters'],
    ['twelve NULs', () => '\u0000'.repeat(12), 'must not contain control characters'],
    ['twelve zero-width spaces', () => '\u200b'.repeat(12), 'must not contain invisible format characters (such as zero-width spaces)'],
    ['lone surrogates', () => 'Quiet-harbour-\ud800\udc00\ud800', 'must be well-formed Unicode (no lone surrogates)'],
    ['an unassigned code point', () => 'Quiet-harbour-\u0378-47', 'must not contain unassigned characters'],
    ['aaaaaaaaaaaa', () => 'aaaaaaaaaaaa', 'must use at least 5 different characters'],
    ['password1234', () => 'password1234', 'is a commonly used password'],
    ['the username itself', (username) => username, 'must not contain the username'],
  ];

  it.each(cases)('POST auth refuses %s', async (_case, password, rule) => {
    const username = unique('weakling-user');
    const body = { username, password: password(username), email: `${username}@example.com`, name: 'Weak', role: 'viewer' };
    const res = await call('POST', '/auth', { token: adminToken, body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errors: [{ field: 'body.password', message: `body.password ${rule}` }] });
    expect((await call('GET', `/auth/${username}`, { token: adminToken })).status).toBe(404);
  });

  it.each(cases)('POST auth/me/password and the admin route refuse %s', async (_case, password, rule) => {
    const username = await createUser();
    const token = await signIn(username);
    const own = await call('POST', '/auth/me/password', { token, body: { currentPassword: PASSWORD, newPassword: password(username) } });
    expect(own.status).toBe(400);
    expect(own.body).toMatchObject({ errors: [{ field: 'body.newPassword', message: `body.newPassword ${rule}` }] });
    const byAdmin = await call('POST', `/auth/${username}/password/admin`, { token: adminToken, body: { newPassword: password(username) } });
    expect(byAdmin.status).toBe(400);
    expect((await call('GET', '/auth/me', { token })).status).toBe(200);
  });

  it('accepts a long passphrase with accents and emoji, normalising it (NFC): the decomposed form signs in too', async () => {
    const username = await createUser();
    const composed = 'Crème brûlée 🍮 at the harbour';
    const res = await call('POST', `/auth/${username}/password/admin`, { token: adminToken, body: { newPassword: composed.normalize('NFD') } });
    expect(res.status).toBe(200);
    await signIn(username, composed.normalize('NFC'));
  });
});
