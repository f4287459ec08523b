import { describe, expect, it } from 'vitest';
import { api } from '../support/api';

const routes: [string, string][] = [
  ['GET', '/intervals'],
  ['POST', '/intervals'],
  ['GET', '/intervals/1'],
  ['PUT', '/intervals/1'],
  ['DELETE', '/intervals/1'],
  ['POST', '/intervals/createTable'],
];

describe('API key', () => {
  it.each(routes)('%s %s answers 403 without a key', async (method, path) => {
    const res = await api(method, path, { key: null });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Forbidden' });
  });

  it.each(routes)('%s %s answers 403 with a wrong key', async (method, path) => {
    const res = await api(method, path, { key: 'not-the-key' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Forbidden' });
  });

  it('lets the right key through', async () => {
    expect((await api('GET', '/intervals')).status).toBe(200);
  });
});
