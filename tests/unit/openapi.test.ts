import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../scripts/openapi';
import { routes } from '../../scripts/registry';

type Operation = { requestBody?: unknown; responses: Record<string, unknown>; security: Record<string, unknown>[] };

describe('docs/openapi.json', () => {
  it('documents every route with a success answer and the API-key answers (none for a vendor webhook, which takes no key)', async () => {
    const doc = await buildOpenApi();
    for (const route of await routes()) {
      const op = (doc.paths[`/${route.path}`] as Record<string, Operation> | undefined)?.[route.method.toLowerCase()];
      expect(op, `${route.method} /${route.path}`).toBeDefined();
      expect(Object.keys(op!.responses).some((s) => s.startsWith('2')), `${route.functionName} has a 2xx answer`).toBe(true);
      if (!route.private) {
        expect(route.contract.permission, `${route.functionName}: a route without the API key is public`).toBe('public');
        expect(op!.security, route.functionName).toEqual([]);
        continue;
      }
      expect(op!.responses['403']).toBeDefined();
      expect(op!.security[0]).toHaveProperty('apiKey');
    }
  });

  it('carries each route request body schema', async () => {
    const doc = await buildOpenApi();
    const create = (doc.paths['/intervals'] as Record<string, Operation>).post;
    expect(create?.requestBody).toMatchObject({ content: { 'application/json': { schema: { required: expect.arrayContaining(['intervalDeviceSyncInfo']) } } } });
  });
});
