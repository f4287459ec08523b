import { describe, expect, it } from 'vitest';
import { buildOpenApi, forbiddenMessages } from '../../scripts/openapi';
import { routes } from '../../scripts/registry';
import { PERMISSIONS, type Permission } from '#lib/shared/access';

type Schema = { $ref?: string; properties?: { message?: { const?: string; enum?: string[] } } };
type Answer = { description: string; content?: { 'application/json': { schema: { oneOf?: Schema[] } } } };
type Operation = { responses: Record<string, Answer>; 'x-permission'?: string; description?: string };

/** The messages a 403 answer is documented to carry. */
const documented403 = (answer: Answer | undefined) =>
  (answer?.content?.['application/json'].schema.oneOf ?? []).flatMap((schema) =>
    schema.$ref === '#/components/schemas/Forbidden' ? ['Forbidden'] : (schema.properties?.message?.enum ?? [schema.properties?.message?.const]),
  );

const all = await routes();
const operationOf = async (route: (typeof all)[number]) =>
  ((await buildOpenApi()).paths[`/${route.path}`] as Record<string, Operation>)[route.method.toLowerCase()];

describe('every route states the permission it needs (DESIGN §5), and OpenAPI documents it', () => {
  it.each(all.map((route) => [route.method, route.path, route] as const))('%s /%s names a permission of the vocabulary', (_m, _p, route) => {
    expect([...PERMISSIONS, 'signed-in', 'public']).toContain(route.contract.permission);
  });

  it("only sign-in, the service token exchange and the Zoom and PagerDuty event receivers (their signature their credential) are public", () => {
    expect(all.filter((route) => route.contract.permission === 'public').map((route) => route.path).sort()).toEqual(
      ['api/authService/auth/signin', 'api/authService/service/token', 'incidents/pagerduty/events', 'vendors/zoom/events'].filter((path) => all.some((route) => route.path === path)).sort(),
    );
  });

  it('every permission route documents its 403 bodies beside API Gateway\'s Forbidden, its 401, and x-permission', async () => {
    const guarded = all.filter((route) => (PERMISSIONS as readonly string[]).includes(route.contract.permission));
    expect(guarded.length).toBeGreaterThan(60);
    for (const route of guarded) {
      const operation = await operationOf(route);
      const permission = route.contract.permission as Permission;
      expect(documented403(operation?.responses['403']), `${route.method} /${route.path}`).toEqual(['Forbidden', ...forbiddenMessages(permission)]);
      expect(operation?.responses['401'], `${route.method} /${route.path}`).toBeDefined();
      expect(operation?.['x-permission']).toBe(permission);
      expect(operation?.description).toContain(permission);
    }
  });

  it('the admin routes keep the message "This operation needs the admin role"', () => {
    expect(forbiddenMessages('admin')[0]).toBe('This operation needs the admin role');
  });
});
