import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../scripts/openapi';
import { root, routes } from '../../scripts/registry';

type Schema = { $ref?: string; properties?: { message?: { const?: string } } };
type Answer = { description: string; content?: { 'application/json': { schema: { oneOf?: Schema[] } } } };
const ADMIN_ONLY = 'This operation needs the admin role';

/** The messages a 403 answer is documented to carry. */
const documented403 = (answer: Answer | undefined) =>
  (answer?.content?.['application/json'].schema.oneOf ?? []).map((schema) =>
    schema.$ref === '#/components/schemas/Forbidden' ? 'Forbidden' : schema.properties?.message?.const,
  );

describe('docs/openapi.json documents the 403 of a signed-in caller without the right role', () => {
  it('every admin-only route documents {"message":"This operation needs the admin role"} beside API Gateway\'s Forbidden', async () => {
    const doc = await buildOpenApi();
    const adminOnly = (await routes()).filter((route) => route.contract.access === 'admin');
    expect(adminOnly.length).toBeGreaterThan(10);
    for (const route of adminOnly) {
      const answer = (doc.paths[`/${route.path}`] as Record<string, { responses: Record<string, Answer> }>)[route.method.toLowerCase()]?.responses['403'];
      expect(documented403(answer), `${route.method} /${route.path}`).toEqual(['Forbidden', ADMIN_ONLY]);
      expect(answer?.description).toContain(ADMIN_ONLY);
    }
  });
});
