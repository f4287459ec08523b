import { beforeAll, describe, expect, it } from 'vitest';
import type { Permission } from '#lib/shared/access';
import { api } from '../support/api';
import { PRINCIPAL_PASSWORD, adminToken, signIn, tokensByPermission, userWith } from '../support/principals';
import { permissionRoutes, publicRoutes, signedInRoutes } from '../support/routeAccess';

/**
 * ACCESS_MODE=user (every deployed stage's default): the API key says which application calls,
 * a bearer token says who acts. Every route is found from the contracts.
 */
let tokens: Record<Permission, { with: string; without: string }>;
beforeAll(async () => {
  tokens = await tokensByPermission();
}, 120_000);

describe('ACCESS_MODE=user: the API key alone acts nowhere but sign-in and token exchange', () => {
  it.each([...permissionRoutes.map(([m, p]) => [m, p] as const), ...signedInRoutes])('%s %s answers 401 to the key alone', async (method, path) => {
    const res = await api<{ message: string }>(method, path);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it.each(publicRoutes)('%s %s is reached with the key alone (never 401 for lack of a token)', async (method, path) => {
    const res = await api(method, path, { body: {} });
    expect(res.status).toBe(400); // the empty body is refused by the route itself
  });

  it('answers 401 to a token that is not one of ours', async () => {
    const res = await api('GET', '/intervals', { token: 'eyJhbGciOiJFZERTQSJ9.e30.c2ln' });
    expect(res.status).toBe(401);
  });
});

describe('ACCESS_MODE=user: per route, a token without its permission is 403 and one with it passes', () => {
  it.each(permissionRoutes)('%s %s needs %s', async (method, path, permission) => {
    const refused = await api<{ message: string }>(method, path, { token: tokens[permission].without });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain(permission === 'admin' ? 'admin role' : permission);
    const allowed = await api(method, path, { token: tokens[permission].with });
    expect([401, 403]).not.toContain(allowed.status);
  });

  it.each(signedInRoutes)('%s %s takes any signed-in principal', async (method, path) => {
    // a token of its own: logout revokes the token it is called with
    const { token } = await userWith(await adminToken(), 'viewer');
    const res = await api(method, path, { token });
    expect([401, 403]).not.toContain(res.status);
  });
});

describe('ACCESS_MODE=user: built-in roles', () => {
  it('a viewer reads the fleet and is refused a change', async () => {
    const viewer = await userWith(await adminToken(), 'viewer');
    expect((await api('GET', '/intervals', { token: viewer.token })).status).toBe(200);
    const refused = await api<{ message: string }>('POST', '/watcher/createTable', { token: viewer.token });
    expect(refused).toMatchObject({ status: 403, body: { message: 'This operation needs the watchers:write permission' } });
  });

  it('an operator acknowledges, silences and writes watchers but changes no channel or configuration', async () => {
    const operator = await userWith(await adminToken(), 'operator');
    expect((await api('POST', '/watcher/createTable', { token: operator.token })).status).toBe(200);
    expect((await api('GET', '/channels', { token: operator.token })).status).toBe(403);
    expect((await api('POST', '/intervals/createTable', { token: operator.token })).status).toBe(403);
  });

  it('a signed-out token is refused at once', async () => {
    const viewer = await userWith(await adminToken(), 'viewer');
    expect((await api('POST', '/api/authService/auth/logout', { token: viewer.token })).status).toBe(200);
    expect((await api('GET', '/intervals', { token: viewer.token })).status).toBe(401);
    expect((await api('GET', '/intervals', { token: await signIn(viewer.username, PRINCIPAL_PASSWORD) })).status).toBe(200);
  });
});
