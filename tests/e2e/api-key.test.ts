import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { routes, samplePath } from '../support/routes';

const all = await routes();
// the one exception (DESIGN D9): a vendor's webhook, which cannot send our key; its signature is its credential
const keyless = all.filter((route) => !route.private);
const table = all.filter((route) => route.private).map((route) => [route.method, samplePath(route), route] as const);

describe('API key on every route (from the contracts)', () => {
  it.each(table)('%s %s is declared private', (_m, _p, route) => {
    expect(route.private).toBe(true);
  });

  it("leaves only Zoom's event receiver without the key, and it refuses an unsigned request with 401", async () => {
    expect(keyless.map((route) => `${route.method} /${route.path}`)).toEqual(['POST /vendors/zoom/events']);
    const res = await api('POST', '/vendors/zoom/events', { key: null, body: { event: 'zoomroom.alert', payload: {} } });
    expect(res.status).toBe(401);
    // our handler's refusal (no signature, or no secret token where this instance runs), not API Gateway's 403
    expect(res.body).toMatchObject({ message: expect.stringMatching(/^Refused: /) });
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
