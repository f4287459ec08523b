import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientTypesFile, renderClientTypes } from '../../scripts/client-types';
import { buildOpenApi, openApiFile, renderOpenApi } from '../../scripts/openapi';
import { routes } from '../../scripts/registry';

type Operation = { requestBody?: unknown; responses: Record<string, unknown>; security: Record<string, unknown>[] };

describe('docs/openapi.json', () => {
  it('documents every route with a success answer and the API-key answers', async () => {
    const doc = await buildOpenApi();
    for (const route of routes()) {
      const op = (doc.paths[`/${route.path}`] as Record<string, Operation> | undefined)?.[route.method.toLowerCase()];
      expect(op, `${route.method} /${route.path}`).toBeDefined();
      expect(Object.keys(op!.responses).some((s) => s.startsWith('2')), `${route.functionName} has a 2xx answer`).toBe(true);
      expect(op!.responses['403']).toBeDefined();
      expect(op!.security[0]).toHaveProperty('apiKey');
    }
  });

  it('carries each route request body schema', async () => {
    const doc = await buildOpenApi();
    const create = (doc.paths['/intervals'] as Record<string, Operation>).post;
    expect(create?.requestBody).toMatchObject({ content: { 'application/json': { schema: { required: expect.arrayContaining(['intervalDeviceSyncInfo']) } } } });
  });

  it('is current: run `npm run openapi` after changing routes or schemas', async () => {
    expect(readFileSync(openApiFile, 'utf8')).toBe(await renderOpenApi());
  });

  it('has current client types in client/openapi-types.ts: run `npm run openapi`', async () => {
    const document = JSON.parse(readFileSync(openApiFile, 'utf8')) as object;
    expect(readFileSync(clientTypesFile, 'utf8')).toBe(await renderClientTypes(document));
  }, 60_000);
});
