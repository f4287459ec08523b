import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { load } from 'js-yaml';
import { describe, expect, it, vi } from 'vitest';
import { auditCsv } from '#lib/access/audit/csv';
import { csvCell, csvRow } from '#lib/shared/csv';
import { auditRetentionDays, recordOf } from '#lib/access/audit/log';
import { http, type Binding } from '#lib/http/index';
import { auditEntryOf, auditFactsOf, changedFields, declaredFields, isChange, routeAudit, targetOf, type AuditFacts } from '#lib/access/audit/routes';
import { route, type AuditLog, type IdempotencyStore } from '#lib/http/contract';
import { runIdempotent } from '#lib/http/idempotency';
import type { HttpResult } from '#lib/http/respond';
import { logger } from '#lib/shared/log';
import { requestFacts, type AuditEntry, type AuditRecord } from '#lib/access/audit/types';
import { renderBuild } from '../../scripts/generate';
import { root, routes } from '../../scripts/registry';
import { importGraph } from '../support/bundles';
import { QUOTED_CELLS } from '../support/csv';
import { apiEvent, jsonEvent, lambdaContext } from '../support/events';

const record = (overrides: Partial<AuditRecord> = {}): AuditRecord => ({
  id: 'r1',
  at: '2026-11-26T10:00:00.000Z',
  event: 'change',
  actor: { kind: 'user', id: 'alice' },
  action: 'POST /watcher',
  target: { type: 'watcher', id: 'w1' },
  status: 200,
  fields: ['description', 'severity'],
  requestId: 'req-1',
  sourceIp: '203.0.113.9',
  userAgent: 'curl/8',
  ...overrides,
});

describe('CSV export (RFC 4180, formula cells escaped)', () => {
  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])('prefixes a cell starting %j with a quote and quotes it', (value) => {
    const cell = csvCell(value);
    expect(cell.startsWith(`"'`)).toBe(true);
    expect(cell).toBe(`"'${value}"`);
  });

  it('leaves plain cells bare, quotes cells holding a comma, a quote or a line break, and doubles quotes', () => {
    expect(csvCell('alice')).toBe('alice');
    for (const [value, cell] of QUOTED_CELLS) expect(csvCell(value)).toBe(cell);
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
  });

  it('ends every row with CRLF and starts every page with the header row', () => {
    const csv = auditCsv([record(), record({ id: 'r2', userAgent: '=cmd|"/c calc"!A0', target: { type: 'intervals' } })]);
    const rows = csv.split('\r\n');
    expect(rows).toHaveLength(4);
    expect(rows[3]).toBe('');
    expect(rows[0]).toBe('at,event,actorKind,actorId,action,targetType,targetId,status,fields,requestId,sourceIp,userAgent,reason,id');
    expect(rows[1]).toBe('2026-11-26T10:00:00.000Z,change,user,alice,POST /watcher,watcher,w1,200,description severity,req-1,203.0.113.9,curl/8,,r1');
    expect(rows[2]).toContain(',"\'=cmd|""/c calc""!A0",');
    expect(csvRow(['a', 'b'])).toBe('a,b\r\n');
  });
});

describe('what a record takes from a request', () => {
  const body = Type.Unsafe({
    type: 'object',
    properties: { name: Type.String(), type: Type.String() },
    if: { properties: { type: { const: 'webhook' } } },
    then: Type.Object({ name: Type.String(), type: Type.String(), url: Type.String() }),
    else: Type.Object({ name: Type.String(), type: Type.String(), emails: Type.Array(Type.String()) }),
  });

  it('knows the fields a body schema declares, across its branches and list items', () => {
    expect(declaredFields(body)).toEqual(['emails', 'name', 'type', 'url']);
    expect(declaredFields(Type.Array(Type.Object({ id: Type.Integer(), region: Type.String() })))).toEqual(['id', 'region']);
    expect(declaredFields(undefined)).toEqual([]);
  });

  it('records the names of declared fields a body set, never a value nor a name it did not declare', () => {
    const sent = { password: 'Correct-horse-battery-9', name: 'x', ['=evil']: 1 };
    expect(changedFields(sent, ['name', 'password', 'role'])).toEqual(['name', 'password']);
    expect(changedFields([{ id: 1 }, { id: 2, region: 'EMEA' }], ['id', 'region'])).toEqual(['id', 'region']);
    expect(changedFields([3, 4], ['id'])).toEqual([]);
    expect(changedFields(undefined, ['id'])).toEqual([]);
  });

  const caller = { kind: 'user', username: 'alice' } as const;
  it('finds the target id in a path parameter, a field of the answer, the answer itself, or the caller', () => {
    const path = { watcherid: 'w-7' };
    expect(targetOf({ target: 'watcher', targetId: { path: 'watcherid' } }, { path, result: { body: 'ok' }, principal: caller })).toEqual({ type: 'watcher', id: 'w-7' });
    expect(targetOf({ target: 'role', targetId: { answer: 'roleid' } }, { path: {}, result: { body: { roleid: 'ops' } }, principal: caller })).toEqual({ type: 'role', id: 'ops' });
    expect(targetOf({ target: 'interval', targetId: { answer: 'id' } }, { path: {}, result: { body: { id: 12 } }, principal: caller })).toEqual({ type: 'interval', id: '12' });
    expect(targetOf({ target: 'watcher', targetId: 'answer' }, { path: {}, result: { body: '01HX' }, principal: caller })).toEqual({ type: 'watcher', id: '01HX' });
    expect(targetOf({ target: 'session', targetId: 'caller' }, { path: {}, result: { body: 'Signed out' }, principal: { kind: 'service', username: 's-1' } })).toEqual({ type: 'service', id: 's-1' });
    expect(targetOf({ target: 'filterRecord' }, { path: {}, result: { body: 'Filters saved' }, principal: caller })).toEqual({ type: 'filterRecord' });
    // a location is named by its region too (location names repeat across regions), each part URI-encoded
    const located = { target: 'location', targetId: { path: ['region', 'location'] } } as const;
    expect(targetOf(located, { path: { region: 'EMEA', location: 'London' }, result: { body: {} }, principal: caller })).toEqual({ type: 'location', id: 'EMEA/London' });
    expect(targetOf(located, { path: { region: 'a/b', location: 'c' }, result: { body: {} }, principal: caller })).toEqual({ type: 'location', id: 'a%2Fb/c' });
    expect(targetOf(located, { path: { location: 'London' }, result: { body: {} }, principal: caller })).toEqual({ type: 'location' });
  });

  it('makes an entry of route, actor, target, status and field names, with no value of the body in it', () => {
    const facts: AuditFacts = { action: 'POST /api/authService/auth', event: 'change', target: 'user', targetId: { answer: 'username' }, fields: ['password', 'username'] };
    const secret = 'Granite-harbour-lantern-8472';
    const entry = auditEntryOf(
      facts,
      { path: {}, body: { username: 'bob', password: secret }, principal: caller, requestId: 'r', sourceIp: '1.2.3.4', userAgent: 'ua' },
      { statusCode: 201, body: { username: 'bob', email: 'b@example.com' } },
    );
    expect(entry).toEqual({
      event: 'change', actor: { kind: 'user', id: 'alice' }, action: 'POST /api/authService/auth', target: { type: 'user', id: 'bob' },
      status: 201, fields: ['password', 'username'], requestId: 'r', sourceIp: '1.2.3.4', userAgent: 'ua',
    });
    expect(JSON.stringify(entry)).not.toContain(secret);
  });

  it("takes the route, the request id, API Gateway's source IP and a single-line, bounded user agent", () => {
    const event = apiEvent({
      httpMethod: 'PUT',
      resource: '/watcher/{watcherid}',
      requestContext: { requestId: 'abc', identity: { sourceIp: '198.51.100.4', userAgent: `evil\r\nline${'x'.repeat(600)}` } } as never,
    });
    const facts = requestFacts(event);
    expect(facts).toMatchObject({ action: 'PUT /watcher/{watcherid}', requestId: 'abc', sourceIp: '198.51.100.4' });
    expect(facts.userAgent).toMatch(/^evil {2}linex+$/);
    expect(facts.userAgent).toHaveLength(512);
  });

  it('keeps records AUDIT_RETENTION_DAYS (default 400) through expiresAt', () => {
    expect(auditRetentionDays({})).toBe(400);
    expect(auditRetentionDays({ AUDIT_RETENTION_DAYS: '30' })).toBe(30);
    expect(auditRetentionDays({ AUDIT_RETENTION_DAYS: '-1' })).toBe(400);
    const now = Date.parse('2026-01-01T00:00:00Z');
    const stored = recordOf(record(), now, 30);
    expect(stored.record.at).toBe('2026-01-01T00:00:00.000Z');
    expect(stored.expiresAt).toBe(now / 1000 + 30 * 86_400);
  });
});

const all = await routes();
const bindings = await renderBuild();

describe('which routes are audited (from the contracts)', () => {
  const permissions = load(readFileSync(join(root, 'resources', 'permissions.yml'), 'utf8')) as { functions: Record<string, string[]> };

  /** What changes state, independently of the rule: any method but GET on a route needing a write permission or a token. */
  const mutating = all.filter(({ contract }) => contract.method !== 'GET' && contract.permission !== 'fleet:read' && contract.permission !== 'public');

  it('finds the changes among the routes', () => {
    expect(mutating.length).toBeGreaterThan(30);
    expect(mutating.map((r) => r.functionName)).toEqual(expect.arrayContaining(['watchersCreate', 'usersAdminPassword', 'sessionsLogout', 'channelsCreate']));
  });

  it('records a location profile write with its region and location as the target id', () => {
    for (const action of ['PUT', 'DELETE']) {
      const r = all.find((each) => each.contract.method === action && each.contract.path === 'locations/{region}/{location}/profile')!;
      expect(auditFactsOf(r.contract, r.area)?.targetId, action).toEqual({ path: ['region', 'location'] });
    }
  });

  it.each(mutating.map((r) => [`${r.method} /${r.path}`, r] as const))('%s is audited: its binding stores a record', (_label, r) => {
    const facts = auditFactsOf(r.contract, r.area);
    expect(facts, `${r.functionName} changes state but is not audited (contract audit.record)`).toBeDefined();
    expect(bindings[`generated/routes/${r.functionName}.ts`]).toContain(`audit: routeAudit({"action":"${r.method} /${r.path}"`);
    expect(permissions.functions[r.functionName], `${r.functionName} must be allowed to write its record`).toContain('TableWrite');
  });

  it('audits no read: GETs and fleet:read queries (device lists, lookups, live tickets, refresh) store nothing', () => {
    const audited = all.filter((r) => auditFactsOf(r.contract, r.area) !== undefined);
    expect(audited.filter((r) => r.method === 'GET')).toEqual([]);
    expect(audited.filter((r) => r.contract.permission === 'fleet:read').map((r) => r.functionName)).toEqual([]);
    for (const r of all.filter((r) => !audited.includes(r))) expect(bindings[`generated/routes/${r.functionName}.ts`]).not.toContain('routeAudit');
  });

  it('lets every public route that is not a GET (sign-in, token exchange) reach the audit log itself', async () => {
    // a vendor's webhook (no API key) is no person acting: its refusals are counted and logged, not audited
    const publicWrites = all.filter((r) => r.contract.permission === 'public' && r.method !== 'GET' && r.private);
    expect(publicWrites.map((r) => r.functionName)).toContain('sessionsSignin');
    for (const r of publicWrites) expect('lib/access/audit/log.ts' in (await importGraph(r.handlerFile)).inputs, r.functionName).toBe(true);
  });

  it('names logout and the password changes as authentication events', () => {
    const byName = Object.fromEntries(all.map((r) => [r.functionName, auditFactsOf(r.contract, r.area)]));
    expect(byName.sessionsLogout).toMatchObject({ event: 'logout', targetId: 'caller' });
    expect(byName.usersChangeOwnPassword).toMatchObject({ event: 'password-changed', targetId: 'caller' });
    expect(byName.usersAdminPassword).toMatchObject({ event: 'password-changed', target: 'user', targetId: { path: 'user' } });
    expect(byName.watchersUpdate).toMatchObject({ event: 'change', action: 'PUT /watcher/{watcherid}', target: 'watcher', targetId: { path: 'watcherid' } });
    expect(byName.rolesCreate).toMatchObject({ target: 'role', targetId: { answer: 'roleid' } });
  });

  it('keeps the log append-only: no route but GET reaches /audit', () => {
    const onLog = all.filter((r) => r.path === 'audit' || r.path.startsWith('audit/'));
    expect(onLog.map((r) => r.method)).toEqual(['GET']);
  });

  it('follows the contract where it overrides the rule', () => {
    const base = { method: 'POST', path: 'x', summary: 's', invalidStatus: 400, responses: {} } as const;
    expect(isChange({ method: 'POST', permission: 'fleet:read' })).toBe(false);
    expect(auditFactsOf(route({ ...base, permission: 'fleet:read', audit: { record: true } }), 'things')).toMatchObject({ target: 'thing' });
    expect(auditFactsOf(route({ ...base, permission: 'config:write', audit: { record: false } }), 'things')).toBeUndefined();
  });
});

describe('the change answers 2xx only once its record is stored', () => {
  const changeRoute = route({
    method: 'PUT',
    path: 'thing/{id}',
    summary: 'Change a thing',
    permission: 'config:write',
    invalidStatus: 400,
    request: { path: { id: Type.String() }, body: Type.Object({ name: Type.String(), secret: Type.String() }) },
    responses: { 200: { description: 'The thing', schema: Type.Unknown() } },
  });
  const facts = auditFactsOf(changeRoute, 'things')!;
  const principal = { kind: 'user', username: 'alice', role: 'admin', permissions: [], scope: [] } as const;
  const bindingWith = (log: AuditLog<AuditEntry>): Binding<typeof changeRoute> => ({ functionName: 'thing', invalidStatus: 400, auth: async () => principal, audit: routeAudit(facts, log) });
  const event = () => jsonEvent({ name: 'n', secret: 'Hush-hush-secret-77' }, { httpMethod: 'PUT', resource: '/thing/{id}', pathParameters: { id: '9' } });

  it('stores the record, then answers', async () => {
    const stored: AuditEntry[] = [];
    const handler = http(bindingWith({ append: async (entry) => void stored.push(entry) }), async () => ({ statusCode: 200 as const, body: { ok: true } }));
    const res = await handler(event(), lambdaContext());
    expect(res.statusCode).toBe(200);
    expect(stored).toEqual([expect.objectContaining({ action: 'PUT /thing/{id}', target: { type: 'thing', id: '9' }, fields: ['name', 'secret'], actor: { kind: 'user', id: 'alice' } })]);
    expect(JSON.stringify(stored)).not.toContain('Hush-hush');
  });

  it('answers 503 when the record cannot be stored, and logs the record instead', async () => {
    const error = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const handler = http(bindingWith({ append: () => Promise.reject(new Error('store down')) }), async () => ({ statusCode: 200 as const, body: { ok: true } }));
    const res = await handler(event(), lambdaContext());
    expect(res.statusCode).toBe(503);
    expect(res.headers?.['retry-after']).toBe('1');
    expect(error).toHaveBeenCalledWith('audit record not stored', expect.objectContaining({ audit: expect.objectContaining({ action: 'PUT /thing/{id}' }) }));
    error.mockRestore();
  });

  it('stores nothing for a change that failed', async () => {
    const append = vi.fn(async () => undefined);
    const handler = http(bindingWith({ append }), async () => {
      throw new Error('boom');
    });
    expect((await handler(event(), lambdaContext())).statusCode).toBe(500);
    expect(append).not.toHaveBeenCalled();
  });
});

describe('idempotent replays and the audit record', () => {
  const result: HttpResult = { statusCode: 201, body: { id: 'w1' } };
  const keyed = () => ({ route: 'watchersCreate', event: apiEvent({ headers: { 'idempotency-key': 'k-1' } }), principal: undefined, request: {} });

  it('a replay of an audited result stores no second record', async () => {
    const store: IdempotencyStore = { begin: async () => ({ replay: result }) };
    const audit = vi.fn(async () => undefined);
    const answer = await runIdempotent(store, keyed(), async () => result, audit);
    expect(answer.headers?.['idempotent-replayed']).toBe('true');
    expect(audit).not.toHaveBeenCalled();
  });

  it('keeps the result of a create whose record failed, marked, and the first replay stores the record', async () => {
    const finish = vi.fn(async () => undefined);
    const first: IdempotencyStore = { begin: async () => ({ finish, abandon: async () => undefined }) };
    const failing = vi.fn(() => Promise.reject(new Error('audit down')));
    await expect(runIdempotent(first, keyed(), async () => result, failing)).rejects.toThrow('audit down');
    expect(finish).toHaveBeenCalledWith(result, { auditPending: true });

    const audited = vi.fn(async () => undefined);
    const replaying: IdempotencyStore = { begin: async () => ({ replay: result, auditPending: true, audited }) };
    const audit = vi.fn(async () => undefined);
    await runIdempotent(replaying, keyed(), async () => result, audit);
    expect(audit).toHaveBeenCalledWith(result);
    expect(audited).toHaveBeenCalled();
  });
});
