import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { api, type ApiResponse } from '../support/api';
import { routes, samplePath } from '../support/routes';

type Json = Record<string, unknown>;
type ErrorBody = { message: string; errors?: { field: string; message: string }[] };
type User = { username: string; email: string; name: string; role: string; createdAt: string; updatedAt: string };

const BASE = '/api/authService';
const admin = inject('admin');
const PASSWORD = 'e2e-user-password-1';
const passwords = new Set([admin.password, PASSWORD]);
const answers: string[] = [];

/** Every call of this file goes through here, so the last test can scan every answer. */
const call = async <T = unknown>(method: string, path: string, options: Parameters<typeof api>[2] = {}): Promise<ApiResponse<T>> => {
  const body = options.body as { password?: unknown; newPassword?: unknown; currentPassword?: unknown } | undefined;
  for (const value of [body?.password, body?.newPassword, body?.currentPassword]) if (typeof value === 'string') passwords.add(value);
  const res = await api<T>(method, `${BASE}${path}`, options);
  answers.push(JSON.stringify(res.body), JSON.stringify([...res.headers]));
  return res;
};

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
const signIn = async (username: string, password: string) => {
  const res = await call<{ accessToken: string }>('POST', '/auth/signin', { body: { username, password } });
  expect(res.status).toBe(200);
  return res.body.accessToken;
};

let adminToken: string;
const createUser = async (role = 'viewer', password = PASSWORD) => {
  const username = unique('user');
  const res = await call<User>('POST', '/auth', {
    token: adminToken,
    body: { username, password, email: `${username}@example.com`, name: 'E2E User', role },
  });
  expect(res.status).toBe(201);
  return username;
};

let viewer: string;
let viewerToken: string;
beforeAll(async () => {
  adminToken = await signIn(admin.username, admin.password);
  viewer = await createUser();
  viewerToken = await signIn(viewer, PASSWORD);
});

const allRoutes = await routes();

describe('POST auth/signin', () => {
  it('answers 200 with a bearer token, its lifetime and the user without any hash', async () => {
    const res = await call<Json>('POST', '/auth/signin', { body: { username: viewer, password: PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tokenType: 'Bearer', expiresIn: 900, accessToken: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/) });
    expect(Object.keys(res.body.user as Json).sort()).toEqual(['createdAt', 'email', 'name', 'role', 'updatedAt', 'username']);
  });

  it('answers the same 401 body for a wrong password and an unknown user', async () => {
    const wrong = await call('POST', '/auth/signin', { body: { username: viewer, password: 'not-the-password' } });
    const unknown = await call('POST', '/auth/signin', { body: { username: unique('ghost'), password: PASSWORD } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid username or password' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('answers 429 with Retry-After after 5 failures for one user, even for the right password', async () => {
    const username = await createUser();
    for (let i = 0; i < 5; i++) {
      expect((await call('POST', '/auth/signin', { body: { username, password: 'wrong-password-x' } })).status).toBe(401);
    }
    const res = await call('POST', '/auth/signin', { body: { username, password: PASSWORD } });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('answers 400 naming a missing field', async () => {
    const res = await call<ErrorBody>('POST', '/auth/signin', { body: { username: viewer } });
    expect(res.status).toBe(400);
    expect(res.body.errors?.map((e) => e.field)).toEqual(['body.password']);
  });
});

describe('bearer token on the account group', () => {
  const guarded = allRoutes
    .filter((r) => r.path.startsWith('api/authService/') && r.contract.permission !== 'public')
    .map((r) => [r.method, samplePath(r).replace(`/${BASE.slice(1)}`, '')] as const);

  it('covers all 21 routes that need a token', () => {
    expect(guarded).toHaveLength(21);
  });

  it.each(guarded)('%s %s answers 401 without a token', async (method, path) => {
    const res = await call<ErrorBody>(method, path);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it.each(guarded)('%s %s answers 401 for a forged token', async (method, path) => {
    const [header, payload] = viewerToken.split('.');
    const res = await call(method, path, { token: `${header}.${payload}.${Buffer.from('forged').toString('base64url')}` });
    expect(res.status).toBe(401);
  });

  it('still needs the API key: a valid token without it is 403 from API Gateway', async () => {
    const res = await call('GET', '/auth/me', { token: viewerToken, key: null });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Forbidden' });
  });

  const adminOnly = [
    ['POST', '/auth'],
    ['GET', '/auth/all'],
    ['DELETE', '/auth/someone'],
    ['POST', '/auth/someone/password/admin'],
    ['POST', '/role'],
    ['DELETE', '/role/some-role'],
    ['POST', '/role/createTable'],
    ['POST', '/service/table'],
    ['POST', '/service'],
    ['PUT', `/service/${randomUUID()}`],
    ['DELETE', `/service/${randomUUID()}`],
  ] as const;

  it.each(adminOnly)('%s %s answers 403 to a viewer', async (method, path) => {
    const res = await call<ErrorBody>(method, path, { token: viewerToken, body: method === 'POST' || method === 'PUT' ? {} : undefined });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('This operation needs the admin role');
  });
});

describe('users', () => {
  it('GET auth/me reaches its own handler and answers the caller', async () => {
    const res = await call<User>('GET', '/auth/me', { token: viewerToken });
    expect(res.status).toBe(200);
    expect(res.body.username).toBe(viewer);
  });

  it('GET auth/all reaches its own handler and lists users without hashes', async () => {
    const res = await call<User[]>('GET', '/auth/all', { token: adminToken });
    expect(res.status).toBe(200);
    expect(res.body.map((u) => u.username)).toEqual(expect.arrayContaining([admin.username, viewer]));
    // users other files created with a scope (issue 26) carry it; nobody carries a hash or token bookkeeping
    const fields = ['createdAt', 'email', 'name', 'role', 'updatedAt', 'username'];
    for (const user of res.body) expect(Object.keys(user).sort()).toEqual('scope' in user ? [...fields.slice(0, 4), 'scope', ...fields.slice(4)] : fields);
  });

  it('POST auth answers 201 with the user', async () => {
    const username = unique('new');
    const body = { username, password: 'a-new-password-1', email: `${username}@example.com`, name: 'New', role: 'viewer' };
    const res = await call<User>('POST', '/auth', { token: adminToken, body });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ username, email: body.email, name: 'New', role: 'viewer', createdAt: expect.any(String), updatedAt: expect.any(String) });
  });

  it('POST auth answers 409 for an existing username', async () => {
    const res = await call('POST', '/auth', {
      token: adminToken,
      body: { username: viewer, password: PASSWORD, email: 'x@example.com', name: 'X', role: 'viewer' },
    });
    expect(res.status).toBe(409);
  });

  it.each([
    ['a password shorter than 12 characters', { password: 'short-pass1' }, 'body.password'],
    ['an invalid e-mail', { email: 'not-an-email' }, 'body.email'],
    ['an unknown role', { role: 'no-such-role' }, 'body.role'],
    ['a reserved username', { username: 'all' }, 'body.username'],
    ['an unknown field', { admin: true }, 'body.admin'],
  ])('POST auth answers 400 for %s, naming the field', async (_case, change, field) => {
    const base = { username: unique('bad'), password: PASSWORD, email: 'b@example.com', name: 'B', role: 'viewer' };
    const res = await call<ErrorBody>('POST', '/auth', { token: adminToken, body: { ...base, ...change } });
    expect(res.status).toBe(400);
    expect(res.body.errors?.map((e) => e.field)).toContain(field);
  });

  it('GET auth/{user} answers the user to an admin and to the user itself', async () => {
    expect((await call<User>('GET', `/auth/${viewer}`, { token: adminToken })).body.username).toBe(viewer);
    expect((await call<User>('GET', `/auth/${viewer}`, { token: viewerToken })).status).toBe(200);
  });

  it("GET auth/{user} answers 403 for another user's record to a non-admin", async () => {
    expect((await call('GET', `/auth/${admin.username}`, { token: viewerToken })).status).toBe(403);
  });

  it('GET auth/{user} answers 404 for an unknown user', async () => {
    expect((await call('GET', `/auth/${unique('ghost')}`, { token: adminToken })).status).toBe(404);
  });

  it('DELETE auth/{user} answers 200, then the user is gone and their token refused', async () => {
    const username = await createUser();
    const token = await signIn(username, PASSWORD);
    const res = await call('DELETE', `/auth/${username}`, { token: adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toBe(`User ${username} deleted`);
    expect((await call('GET', `/auth/${username}`, { token: adminToken })).status).toBe(404);
    expect((await call('GET', '/auth/me', { token })).status).toBe(401);
  });

  it('DELETE auth/{user} answers 404 for an unknown user and 409 for yourself', async () => {
    expect((await call('DELETE', `/auth/${unique('ghost')}`, { token: adminToken })).status).toBe(404);
    expect((await call('DELETE', `/auth/${admin.username}`, { token: adminToken })).status).toBe(409);
  });
});

describe('passwords and logout', () => {
  it('POST auth/me/password answers 401 for a wrong current password', async () => {
    const res = await call('POST', '/auth/me/password', { token: viewerToken, body: { currentPassword: 'wrong-password-1', newPassword: 'whatever-new-pass' } });
    expect(res.status).toBe(401);
  });

  it('POST auth/me/password answers 400 for a too short new password', async () => {
    const res = await call<ErrorBody>('POST', '/auth/me/password', { token: viewerToken, body: { currentPassword: PASSWORD, newPassword: 'short' } });
    expect(res.status).toBe(400);
    expect(res.body.errors?.map((e) => e.field)).toEqual(['body.newPassword']);
  });

  it('POST auth/me/password answers 200; the old token is refused at once and the new password signs in', async () => {
    const username = await createUser();
    const old = await signIn(username, PASSWORD);
    const res = await call('POST', '/auth/me/password', { token: old, body: { currentPassword: PASSWORD, newPassword: 'my-new-password-2' } });
    expect(res.status).toBe(200);
    expect((await call('GET', '/auth/me', { token: old })).status).toBe(401);
    const fresh = await signIn(username, 'my-new-password-2');
    expect((await call('GET', '/auth/me', { token: fresh })).status).toBe(200);
    expect((await call('POST', '/auth/signin', { body: { username, password: PASSWORD } })).status).toBe(401);
  });

  it("POST auth/{user}/password/admin answers 200 and ends the user's earlier tokens", async () => {
    const username = await createUser();
    const old = await signIn(username, PASSWORD);
    const res = await call('POST', `/auth/${username}/password/admin`, { token: adminToken, body: { newPassword: 'set-by-admin-pass' } });
    expect(res.status).toBe(200);
    expect((await call('GET', '/auth/me', { token: old })).status).toBe(401);
    await signIn(username, 'set-by-admin-pass');
  });

  it('POST auth/{user}/password/admin answers 404 for an unknown user', async () => {
    const res = await call('POST', `/auth/${unique('ghost')}/password/admin`, { token: adminToken, body: { newPassword: 'set-by-admin-pass' } });
    expect(res.status).toBe(404);
  });

  it('POST auth/logout answers 200 and the token is refused afterwards', async () => {
    const token = await signIn(viewer, PASSWORD);
    const res = await call('POST', '/auth/logout', { token });
    expect(res.status).toBe(200);
    expect((await call('GET', '/auth/me', { token })).status).toBe(401);
    expect((await call('GET', '/auth/me', { token: viewerToken })).status).toBe(200);
  });
});

describe('roles', () => {
  it('POST role answers 201 with the roleid derived from the name', async () => {
    const name = unique('Night Shift');
    const res = await call<Json>('POST', '/role', { token: adminToken, body: { name, description: 'nights', permissions: ['fleet:read'] } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ roleid: name.toLowerCase().replace(/ /g, '-'), name, description: 'nights', permissions: ['fleet:read'] });
  });

  it('POST role answers 409 for a taken id, built-ins included', async () => {
    const name = unique('dup');
    await call('POST', '/role', { token: adminToken, body: { name } });
    expect((await call('POST', '/role', { token: adminToken, body: { name } })).status).toBe(409);
    expect((await call('POST', '/role', { token: adminToken, body: { name: 'Admin' } })).status).toBe(409);
  });

  it('POST role answers 400 naming an invalid permission', async () => {
    const res = await call<ErrorBody>('POST', '/role', { token: adminToken, body: { name: unique('r'), permissions: ['bad permission!'] } });
    expect(res.status).toBe(400);
    expect(res.body.errors?.map((e) => e.field)).toEqual(['body.permissions[0]']);
  });

  it('GET role/all reaches its own handler and always has admin and viewer', async () => {
    const res = await call<{ roleid: string }[]>('GET', '/role/all', { token: viewerToken });
    expect(res.status).toBe(200);
    expect(res.body.map((r) => r.roleid)).toEqual(expect.arrayContaining(['admin', 'viewer']));
  });

  it('GET role/{roleid} answers the role, 404 when unknown', async () => {
    expect((await call<Json>('GET', '/role/viewer', { token: viewerToken })).body).toMatchObject({ roleid: 'viewer', builtIn: true });
    expect((await call('GET', `/role/${unique('none')}`, { token: viewerToken })).status).toBe(404);
  });

  it('DELETE role/{roleid} answers 409 while a user holds it, 200 once free, then 404', async () => {
    const { body: role } = await call<{ roleid: string }>('POST', '/role', { token: adminToken, body: { name: unique('temp') } });
    const username = await createUser(role.roleid);
    expect((await call('DELETE', `/role/${role.roleid}`, { token: adminToken })).status).toBe(409);
    await call('DELETE', `/auth/${username}`, { token: adminToken });
    expect((await call('DELETE', `/role/${role.roleid}`, { token: adminToken })).status).toBe(200);
    expect((await call('DELETE', `/role/${role.roleid}`, { token: adminToken })).status).toBe(404);
  });

  it('DELETE role/{roleid} answers 409 for a built-in role', async () => {
    expect((await call('DELETE', '/role/viewer', { token: adminToken })).status).toBe(409);
  });

  it('POST role/createTable answers 200 and is safe to repeat', async () => {
    const res = await call<string>('POST', '/role/createTable', { token: adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatch(/already exists/);
  });
});

describe('registered services', () => {
  const create = async (body: Json = { name: unique('svc'), url: 'https://svc.example.com/api' }) => {
    const res = await call<Json & { id: string; secret: string }>('POST', '/service', { token: adminToken, body });
    expect(res.status).toBe(201);
    // the client secret is answered here only (tests/e2e/access-services.test.ts)
    const { secret, ...service } = res.body;
    expect(secret).toMatch(/^[\w-]{43}$/);
    return service;
  };

  it('POST service/table answers 200', async () => {
    expect((await call('POST', '/service/table', { token: adminToken })).status).toBe(200);
  });

  it('POST service answers 201 with an id, active by default', async () => {
    const service = await create({ name: 'Billing', description: 'bills', url: 'http://billing.local:8080/' });
    expect(service).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Billing',
      description: 'bills',
      url: 'http://billing.local:8080/',
      active: true,
      role: 'viewer',
      scope: [],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it.each([
    ['a non-http URL', { name: 'x', url: 'ftp://x.example' }, 'body.url'],
    ['no URL', { name: 'x' }, 'body.url'],
    ['an id', { name: 'x', url: 'https://x.example', id: 'mine' }, 'body.id'],
  ])('POST service answers 400 for %s', async (_case, body, field) => {
    const res = await call<ErrorBody>('POST', '/service', { token: adminToken, body });
    expect(res.status).toBe(400);
    expect(res.body.errors?.map((e) => e.field)).toContain(field);
  });

  it('GET service lists it and GET service/{id} answers it', async () => {
    const service = await create();
    const list = await call<{ id: string }[]>('GET', '/service', { token: viewerToken });
    expect(list.body.map((s) => s.id)).toContain(service.id);
    expect((await call('GET', `/service/${service.id}`, { token: viewerToken })).body).toEqual(service);
  });

  it('PUT service/{id} changes only the fields sent', async () => {
    const service = await create();
    const res = await call<Json>('PUT', `/service/${service.id}`, { token: adminToken, body: { active: false } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...service, active: false, updatedAt: expect.any(String) });
  });

  it('PUT service/{id} answers 400 for an empty body', async () => {
    const service = await create();
    expect((await call('PUT', `/service/${service.id}`, { token: adminToken, body: {} })).status).toBe(400);
  });

  it('DELETE service/{id} answers 200, then the id is unknown', async () => {
    const service = await create();
    expect((await call('DELETE', `/service/${service.id}`, { token: adminToken })).status).toBe(200);
    expect((await call('GET', `/service/${service.id}`, { token: adminToken })).status).toBe(404);
  });

  it.each(['GET', 'PUT', 'DELETE'])('%s service/{id} answers 404 for an unknown id', async (method) => {
    const res = await call(method, `/service/${randomUUID()}`, { token: adminToken, body: method === 'PUT' ? { name: 'x' } : undefined });
    expect(res.status).toBe(404);
  });

  it('GET service/{id} answers 400 for an id that is not a UUID', async () => {
    expect((await call('GET', '/service/1', { token: adminToken })).status).toBe(400);
  });
});

describe('secrets in answers', () => {
  it('no answer of this file carried a password or a password hash', () => {
    const all = answers.join('\n');
    expect(answers.length).toBeGreaterThan(100);
    expect(all).not.toMatch(/scrypt\$|passwordHash|tokensValidAfter|incarnation/);
    for (const password of passwords) expect(all).not.toContain(password);
  });
});
