import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { routes, samplePath } from '../support/routes';

const all = await routes();
const table = all.map((route) => [route.method, samplePath(route), route] as const);

describe('API key on every route (from the contracts)', () => {
  it.each(table)('%s %s is declared private', (_m, _p, route) => {
    expect(route.private).toBe(true);
  });

  it.each(table)('%s %s answers 403 without a key', async (method, path) => {
    const res = await api(method, path, { key: null });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Forbidden' });
  });

  it.each(table)('%s %s answers 403 with a wrong key', async (method, path) => {
    const res = await api(method, path, { key: 'not-the-key' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Forbidden' });
  });

  it('lets the right key through', async () => {
    expect((await api('GET', '/intervals')).status).toBe(200);
  });
});
