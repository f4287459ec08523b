import { describe, expect, expectTypeOf, it } from 'vitest';
import { answerHeaders, type DocumentedHeaders } from '../../client';
import { buildOpenApi } from '../../scripts/openapi';
import { routes } from '../../scripts/registry';

type Header = { required?: boolean; $ref?: string; schema?: unknown };
type Operation = { operationId: string; responses: Record<string, { headers?: Record<string, Header> }> };

const operations = async () => {
  const doc = await buildOpenApi();
  const byId = new Map<string, Operation>();
  for (const item of Object.values(doc.paths as Record<string, Record<string, Operation>>)) for (const op of Object.values(item)) byId.set(op.operationId, op);
  const components = (doc.components as { headers: Record<string, Header> }).headers;
  const resolve = (header: Header | undefined) => (header?.$ref ? components[header.$ref.split('/').pop()!] : header);
  return { byId, resolve };
};

describe('the answer headers in docs/openapi.json', () => {
  it('every 401 requires WWW-Authenticate, every 429 and 503 Retry-After, on every route', async () => {
    const { byId, resolve } = await operations();
    const all = await routes();
    expect(byId.size).toBe(all.length);
    for (const [id, op] of byId) {
      for (const [status, name] of [['401', 'WWW-Authenticate'], ['429', 'Retry-After'], ['503', 'Retry-After']] as const) {
        const answer = op.responses[status];
        if (!answer) continue;
        expect(resolve(answer.headers?.[name])?.required, `${id} ${status} ${name}`).toBe(true);
      }
      expect(op.responses['503'], id).toBeDefined();
    }
  });

  it('idempotent creates document idempotent-replayed on their 2xx and an optional Retry-After on their 409', async () => {
    const { byId } = await operations();
    const idempotent = (await routes()).filter((route) => route.contract.idempotent);
    expect(idempotent.length).toBeGreaterThan(0);
    for (const route of idempotent) {
      const op = byId.get(route.functionName)!;
      const success = Object.entries(op.responses).filter(([status]) => status.startsWith('2'));
      for (const [status, answer] of success) expect(answer.headers?.['idempotent-replayed'], `${route.functionName} ${status}`).toMatchObject({ schema: { const: 'true' } });
      expect(op.responses['409']?.headers?.['Retry-After']?.required, route.functionName).toBeUndefined();
      expect(op.responses['409']?.headers?.['Retry-After']).toBeDefined();
    }
    const others = (await routes()).filter((route) => !route.contract.idempotent);
    for (const route of others) expect(JSON.stringify(byId.get(route.functionName)!.responses), route.functionName).not.toContain('idempotent-replayed"');
  });

  it('paged CSV answers document next-cursor on their 200, and only they', async () => {
    const { byId } = await operations();
    const withCursor = [...byId].filter(([, op]) => op.responses['200']?.headers?.['next-cursor']).map(([id]) => id).sort();
    expect(withCursor).toEqual(['alarmsHistory', 'auditList', 'devicesAllDevices', 'devicesHistory']);
  });
});

describe('client/index.ts', () => {
  it('reads the documented headers of an answer', () => {
    const headers = new Headers({ 'retry-after': '5', 'www-authenticate': 'Bearer', 'idempotent-replayed': 'true', 'next-cursor': 'abc' });
    expect(answerHeaders({ headers })).toEqual({ retryAfterSeconds: 5, wwwAuthenticate: 'Bearer', idempotentReplayed: true, nextCursor: 'abc' });
    expect(answerHeaders({ headers: new Headers() })).toEqual({ idempotentReplayed: false });
  });

  it('types the headers each operation documents', () => {
    expectTypeOf<DocumentedHeaders<'/audit', 'get', 200>>().toEqualTypeOf<{ 'next-cursor'?: string }>();
    expectTypeOf<DocumentedHeaders<'/audit', 'get', 401>>().toHaveProperty('WWW-Authenticate');
    expectTypeOf<DocumentedHeaders<'/audit', 'get', 503>['Retry-After']>().toEqualTypeOf<number>();
  });
});
