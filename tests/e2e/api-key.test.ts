import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { routes, samplePath } from '../support/routes';

const all = await routes();
// the exceptions (DESIGN D9): the event receivers of a vendor and of an incident tool, which cannot send our key; a signature is their credential
const keyless = all.filter((route) => !route.private);
const table = all.filter((route) => route.private).map((route) => [route.method, samplePath(route), route] as const);

describe('API key on every route (from the contracts)', () => {
  it.each(table)('%s %s is declared private', (_m, _p, route) => {
    expect(route.private).toBe(true);
  });

  it('leaves only the signed event receivers without the key, and each refuses an unsigned request with 401', async () => {
    expect(keyless.map((route) => `${route.method} /${route.path}`).sort()).toEqual(['POST /incidents/pagerduty/events', 'POST /vendors/zoom/events']);
    for (const [path, body] of [
      ['/vendors/zoom/events', { event: 'zoomroom.alert', payload: {} }],
      ['/incidents/pagerduty/events', { event: { id: 'E1', event_type: 'incident.acknowledged', occurred_at: new Date().toISOString(), data: {} } }],
    ] as const) {
      const res = await api('POST', path, { key: null, body });
      expect({ path, status: res.status }).toEqual({ path, status: 401 });
      // our handler's refusal (no signature, or no secret where this instance runs), not API Gateway's 403
      expect(res.body).toMatchObject({ message: expect.stringMatching(/^Refused: /) });
    }
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
