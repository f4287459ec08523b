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
