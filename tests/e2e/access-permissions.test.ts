import { beforeAll, describe, expect, it } from 'vitest';
import type { Permission } from '#lib/shared/access';
import { api } from '../support/api';
import { tokensByPermission } from '../support/principals';
import { permissionRoutes } from '../support/routeAccess';

/**
 * ACCESS_MODE=key (the spec's contract): the API key alone acts with every permission but admin,
 * and a bearer token, when sent, narrows to its principal. Every route is found from the contracts.
 */
let tokens: Record<Permission, { with: string; without: string }>;
beforeAll(async () => {
  tokens = await tokensByPermission();
}, 120_000);

describe('ACCESS_MODE=key: a bearer token narrows the API key to its principal', () => {
  it.each(permissionRoutes)('%s %s is 403 to a token without %s', async (method, path, permission) => {
    const res = await api<{ message: string }>(method, path, { token: tokens[permission].without });
    expect(res.status).toBe(403);
  });

  it.each(permissionRoutes.filter(([method]) => method === 'GET'))('GET %s passes with a token holding %s', async (_m, path, permission) => {
    const res = await api('GET', path, { token: tokens[permission].with });
    expect([401, 403]).not.toContain(res.status);
  });

  it.each(permissionRoutes.filter(([, , permission]) => permission === 'admin'))('%s %s answers 401 to the key alone (admin needs a token)', async (method, path) => {
    expect((await api(method, path)).status).toBe(401);
  });
});
