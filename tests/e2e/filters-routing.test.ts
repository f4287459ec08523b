import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { routes } from '../support/routes';

type Filter = { id: number; name: string; deviceSN?: string };

// Literal siblings of /filters/{id} and /filtersConfig/{id}. Each must reach its own handler:
// had {id} taken them, the answer would be 400 "pathParameters.id must be a positive integer".
const LOOKUP_PATHS = ['filters/videodevices', 'filters/region', 'filters/location', 'filters/room'];

const allRoutes = await routes();

describe('routing of /filters/* and /filtersConfig/*', () => {
  it('no two routes declare the same method and path', async () => {
    const seen = (await routes()).map((r) => `${r.method} ${r.path}`);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('parameters at the same place of a path have one name (API Gateway refuses siblings {a} and {b})', async () => {
    const names = new Map<string, string>();
    for (const route of await routes()) {
      const segments = route.path.split('/');
      segments.forEach((segment, i) => {
        if (!segment.startsWith('{')) return;
        const parent = segments.slice(0, i).join('/');
        expect(names.get(parent) ?? segment, `${route.path} vs another route under ${parent}`).toBe(segment);
        names.set(parent, segment);
      });
    }
  });

  it('/filters/count, /filters/device/{deviceSN} and /filters/{id} each reach their own handler', async () => {
    await api('POST', '/filters/4242', { body: { name: 'routing', description: '', deviceSN: 'ROUTING-SN' } });

    const count = await api<number>('GET', '/filters/count');
    const byDevice = await api<Filter>('GET', '/filters/device/ROUTING-SN');
    const byId = await api<Filter>('GET', '/filters/4242');

    expect(count.status).toBe(200);
    expect(Number.isInteger(count.body)).toBe(true);
    expect(byDevice).toMatchObject({ status: 200, body: { id: 4242, deviceSN: 'ROUTING-SN' } });
    expect(byId).toMatchObject({ status: 200, body: { id: 4242, name: 'routing' } });
  });

  it('/filters/device/{deviceSN} answers its own 404 for a serial number that looks like an id', async () => {
    expect(await api('GET', '/filters/device/4243')).toMatchObject({ status: 404, body: 'Filter not found' });
  });

  it('/filtersConfig/count and /filtersConfig/{id} each reach their own handler', async () => {
    await api('POST', '/filtersConfig/4242', { body: { region: { regionName: 'routing', location: [] } } });

    const count = await api<number>('GET', '/filtersConfig/count');
    const byId = await api('GET', '/filtersConfig/4242');

    expect(count.status).toBe(200);
    expect(Number.isInteger(count.body)).toBe(true);
    expect(byId).toMatchObject({ status: 200, body: { id: 4242, region: 'routing', locations: [] } });
  });

  // Grows by itself with the value-lookup routes the contracts declare.
  const lookups = allRoutes.filter((r) => LOOKUP_PATHS.includes(r.path));
  it.skipIf(lookups.length === 0)('the value-lookup routes declared beside /filters/{id} reach their own handlers', async () => {
    for (const route of lookups) {
      const res = await api(route.method, `/${route.path}`, route.method === 'POST' ? { body: {} } : {});
      expect(res.status, `${route.method} /${route.path}`).toBe(200);
      expect(Array.isArray(res.body) || Number.isInteger(res.body), `${route.method} /${route.path}`).toBe(true);
    }
  });
});
