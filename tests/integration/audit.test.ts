import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuditFilter, AuditRecord } from '#lib/access/audit/types';
import { auditBase } from '#lib/access/audit/entities';
import '../support/tokenKeys';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { recordAuthEvent } from '#lib/access/audit/log';
import { createUser } from '#lib/access/accounts';
import { secret } from '#lib/adapters/secrets';
import { signIn, signInRecorded } from '#lib/access/signin';
import { UNKNOWN_PRINCIPAL as UNKNOWN_USER } from '#lib/access/audit/outcome';
import * as audit from '#lib/access/audit/repository';
import { doc, dynamo, tableName } from '#lib/store/client';
import { intervals as intervalStore } from '#lib/config/intervals/repository';
import { InvalidCursor, Unauthorized } from '#lib/shared/errors';
import { INTERVAL_FIELDS } from '#lib/config/intervals/types';
import { handler as createInterval } from '../../functions/intervals/create';
import { handler as updateInterval } from '../../functions/intervals/update';
import { handler as logout } from '../../functions/sessions/logout';
import { handler as listAudit } from '../../functions/audit/list';
import { apiEvent, jsonEvent, lambdaContext } from '../support/events';

/*
 * The audit log's store (lib/access/audit/repository.ts; docs/data-model.md "Audit log"): newest first over
 * every shard, each filter a key (or a condition within one), sealed cursors, expired records
 * absent; and the request path: one record per change, none for a replay.
 */
const nowSeconds = () => Math.floor(Date.now() / 1000);
const DAY = 86_400;
/** A test's own actor, action and target type, so its records are told apart from any other's. */
const tag = randomUUID().slice(0, 8);
const base = Date.parse('2026-03-01T00:00:00.000Z');

const recordAt = (i: number, overrides: Partial<AuditRecord> = {}): AuditRecord => ({
  id: `${tag}-${String(i).padStart(3, '0')}`,
  at: new Date(base + i * 60_000).toISOString(),
  event: 'change',
  actor: { kind: i % 3 === 0 ? 'api-key' : 'user', id: i % 3 === 0 ? 'api-key' : `alice-${tag}` },
  action: i % 2 === 0 ? `PUT /watcher/{watcherid}` : `DELETE /watcher/{watcherid}`,
  target: { type: `watcher-${tag}`, id: `w-${i % 5}` },
  status: 200,
  fields: i % 2 === 0 ? ['description'] : [],
  requestId: `req-${i}`,
  sourceIp: '203.0.113.7',
  userAgent: 'vitest',
  ...overrides,
});
const seeded = Array.from({ length: 40 }, (_, i) => recordAt(i));

/** Every record a filter answers, page after page of `limit`, with the cursors it went through. */
const allPages = async (filter: AuditFilter, limit: number) => {
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await audit.query(filter, limit, cursor);
    ids.push(...page.items.map((r) => r.id));
    cursor = page.nextCursor ?? undefined;
    pages++;
  } while (cursor && pages < 100);
  return { ids, pages };
};
const newestFirst = (records: AuditRecord[]) => [...records].sort((a, b) => (a.at < b.at ? 1 : -1)).map((r) => r.id);
const scoped: AuditFilter = { targetType: `watcher-${tag}` };

const PASSWORD = 'Integration-audit-password-5';
const admin = `admin-${tag}`;
let adminToken: string;
beforeAll(async () => {
  // written in random order: the reader restores newest first over every shard
  for (const record of [...seeded].sort(() => Math.random() - 0.5)) await audit.append(record, nowSeconds() + DAY);
  await createUser({ username: admin, email: `${admin}@example.com`, name: 'Audit Admin', role: 'admin' }, PASSWORD);
  adminToken = (await signIn(secret, admin, PASSWORD)).accessToken;
});
afterEach(() => vi.restoreAllMocks());

describe('audit log store', () => {
  it('answers newest first across every shard, one record once, with actor, action and target', async () => {
    const page = await audit.query(scoped, 1000);
    expect(page.items.map((r) => r.id)).toEqual(newestFirst(seeded));
    expect(page.nextCursor).toBeNull();
    expect(page.items.find((r) => r.id === seeded[4]!.id)).toEqual(seeded[4]);
  });

  it('spreads a burst over the shards of each key (no fleet-sized burst on one partition)', async () => {
    const { Items = [] } = await doc.send(new ScanCommand({ TableName: tableName(), FilterExpression: 'begins_with(id, :tag)', ExpressionAttributeValues: { ':tag': tag } }));
    expect(Items).toHaveLength(seeded.length * 2);
    const partitions = new Set(Items.map((item) => String(item.PK)));
    expect([...partitions].every((pk) => /^AUDIT#(ALL|TARGET#watcher-[0-9a-f]+)#\d+$/.test(pk))).toBe(true);
    expect(new Set([...partitions].filter((pk) => pk.startsWith(`${auditBase.all()}#`))).size).toBeGreaterThan(3);
  });

  it.each<[string, AuditFilter, (r: AuditRecord) => boolean]>([
    ['actor', { actor: `alice-${tag}` }, (r) => r.actor.id === `alice-${tag}`],
    ['actor kind with target type', { ...scoped, actorKind: 'api-key' }, (r) => r.actor.kind === 'api-key'],
    ['action with target type', { ...scoped, action: 'DELETE /watcher/{watcherid}' }, (r) => r.action === 'DELETE /watcher/{watcherid}'],
    ['target type', scoped, () => true],
    ['target id with type', { ...scoped, targetId: 'w-3' }, (r) => r.target.id === 'w-3'],
    ['actor and action', { actor: `alice-${tag}`, action: 'PUT /watcher/{watcherid}' }, (r) => r.actor.id === `alice-${tag}` && r.action === 'PUT /watcher/{watcherid}'],
    ['from and to (inclusive)', { ...scoped, from: seeded[10]!.at, to: seeded[19]!.at }, (r) => r.at >= seeded[10]!.at && r.at <= seeded[19]!.at],
    ['to only', { ...scoped, to: seeded[4]!.at }, (r) => r.at <= seeded[4]!.at],
  ])('filters by %s', async (_label, filter, keep) => {
    const expected = newestFirst(seeded.filter(keep));
    expect(expected.length).toBeGreaterThan(0);
    expect((await audit.query(filter, 1000)).items.map((r) => r.id)).toEqual(expected);
  });

  it('pages with sealed cursors: every record exactly once, in order, whatever the page size', async () => {
    for (const limit of [1, 7, 13, 40]) {
      const { ids, pages } = await allPages(scoped, limit);
      expect(ids, `limit ${limit}`).toEqual(newestFirst(seeded));
      expect(pages, `limit ${limit}`).toBe(Math.ceil(seeded.length / limit));
    }
    const filtered = await allPages({ ...scoped, action: 'PUT /watcher/{watcherid}', from: seeded[5]!.at }, 3);
    expect(filtered.ids).toEqual(newestFirst(seeded.filter((r) => r.action.startsWith('PUT') && r.at >= seeded[5]!.at)));
  });

  it('refuses a cursor answered for other filters, or forged', async () => {
    const first = await audit.query(scoped, 5);
    expect(first.nextCursor).toEqual(expect.any(String));
    await expect(audit.query({ ...scoped, actor: `alice-${tag}` }, 5, first.nextCursor!)).rejects.toBeInstanceOf(InvalidCursor);
    const forged = `${Buffer.from(JSON.stringify({ after: '9999' })).toString('base64url')}.AAAA`;
    await expect(audit.query(scoped, 5, forged)).rejects.toBeInstanceOf(InvalidCursor);
  });

  it('treats an expired record as absent though TTL has not removed it yet', async () => {
    const type = `expiring-${tag}`;
    const kept = recordAt(100, { id: `${tag}-kept`, target: { type, id: 'x' } });
    const expired = recordAt(101, { id: `${tag}-expired`, target: { type, id: 'x' } });
    await audit.append(kept, nowSeconds() + DAY);
    await audit.append(expired, nowSeconds() - 1);
    expect((await audit.query({ targetType: type }, 10)).items.map((r) => r.id)).toEqual([kept.id]);
    expect((await audit.query({ targetId: 'x', targetType: type }, 10)).items.map((r) => r.id)).toEqual([kept.id]);
  });

  it('stores an authentication event with the request it came with and AUDIT_RETENTION_DAYS of life', async () => {
    vi.stubEnv('AUDIT_RETENTION_DAYS', '2');
    const user = `bob-${tag}`;
    const request = apiEvent({ httpMethod: 'POST', resource: '/api/authService/auth/signin', requestContext: { requestId: 'rq-auth', identity: { sourceIp: '198.51.100.1', userAgent: 'ua' } } as never });
    await recordAuthEvent(request, { event: 'signin-failed', actor: { kind: 'user', id: user }, target: { type: 'user', id: user }, status: 401 });
    const [stored] = (await audit.query({ actor: user }, 10)).items;
    expect(stored).toMatchObject({ event: 'signin-failed', action: 'POST /api/authService/auth/signin', requestId: 'rq-auth', sourceIp: '198.51.100.1', status: 401, fields: [] });
    const { Items = [] } = await doc.send(new ScanCommand({ TableName: tableName(), FilterExpression: 'id = :id', ExpressionAttributeValues: { ':id': stored!.id } }));
    const lifetime = Number(Items[0]!.expiresAt) - Math.floor(Date.parse(stored!.at) / 1000);
    expect(lifetime).toBe(2 * DAY);
  });
});

describe('audit records on the request path', () => {
  const intervals = Object.fromEntries(INTERVAL_FIELDS.map((field) => [field, 30]));
  const create = async (key: string) => {
    const event = jsonEvent(intervals, { httpMethod: 'POST', resource: '/intervals' });
    event.headers = { ...event.headers, 'idempotency-key': key };
    const res = await createInterval(event, lambdaContext());
    return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, replayed: res.headers?.['idempotent-replayed'] };
  };
  const recordsOf = async (id: number) => (await audit.query({ targetType: 'interval', targetId: String(id) }, 10)).items;

  it('stores one record for a create, none for its replays', async () => {
    const key = randomUUID();
    const first = await create(key);
    expect(first.status).toBe(200);
    expect(await create(key)).toMatchObject({ status: 200, replayed: 'true', body: first.body });
    expect(await recordsOf(first.body.id)).toEqual([
      expect.objectContaining({ event: 'change', action: 'POST /intervals', actor: { kind: 'api-key', id: 'api-key' }, status: 200, fields: [...INTERVAL_FIELDS].sort() }),
    ]);
  });

  it('answers 503 and changes nothing when the change and its record cannot be stored together; a retry creates once, recorded once', async () => {
    const idsBefore = new Set((await intervalStore.list()).map((interval) => interval.id));
    // the store refuses the change's transaction (the change and its record) once, before the SDK's retries
    const refuse = (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
      if (context.commandName === 'TransactWriteItemsCommand' && refusals-- > 0) throw Object.assign(new Error('store down'), { name: 'ServiceUnavailable' });
      return next(args);
    };
    let refusals = 1;
    dynamo.middlewareStack.add(refuse as never, { step: 'initialize', name: 'refuse-transaction' });
    try {
      const key = randomUUID();
      const failed = await create(key);
      expect(failed.status).toBe(503);
      const created = (await intervalStore.list()).filter((interval) => !idsBefore.has(interval.id));
      expect(created).toEqual([]);
      const retry = await create(key);
      expect(retry.status).toBe(200);
      expect(retry.replayed).toBeUndefined();
      expect(await recordsOf(retry.body.id)).toHaveLength(1);
      expect(await create(key)).toMatchObject({ status: 200, replayed: 'true' });
      expect(await recordsOf(retry.body.id)).toHaveLength(1);
    } finally {
      dynamo.middlewareStack.remove('refuse-transaction');
    }
  });

  it('GET /audit?format=csv answers the page as CSV and the next cursor in a header', async () => {
    const query = { targetType: `watcher-${tag}`, format: 'csv', limit: '15' };
    const get = (parameters: Record<string, string>) =>
      listAudit(apiEvent({ httpMethod: 'GET', resource: '/audit', queryStringParameters: parameters, headers: { authorization: `Bearer ${adminToken}` } }), lambdaContext());
    const res = await get(query);
    expect(res.statusCode).toBe(200);
    expect(res.headers?.['content-type']).toBe('text/csv; charset=utf-8; header=present');
    const rows = res.body.split('\r\n');
    expect(rows).toHaveLength(1 + 15 + 1);
    expect(rows[1]).toContain(newestFirst(seeded)[0]);
    const next = await get({ ...query, cursor: String(res.headers?.['next-cursor']) });
    expect(next.body.split('\r\n')[1]).toContain(newestFirst(seeded)[15]);
  });
});

describe('authentication events', () => {
  const request = (resource: string, headers: Record<string, string> = {}) =>
    apiEvent({ httpMethod: 'POST', resource, headers, requestContext: { requestId: `rq-${randomUUID()}`, identity: { sourceIp: '192.0.2.5', userAgent: 'vitest' } } as never });
  const eventsOf = async (actor: string) => (await audit.query({ actor }, 50)).items.map((r) => [r.event, r.status]);

  it('records a sign-in that succeeded, one that failed and one of an unknown user, never the name typed', async () => {
    const user = `carol-${tag}`;
    await createUser({ username: user, email: `${user}@example.com`, name: 'Carol', role: 'viewer' }, PASSWORD);
    await signInRecorded(secret, user, PASSWORD, request('/api/authService/auth/signin'));
    await expect(signInRecorded(secret, user, 'not-the-password', request('/api/authService/auth/signin'))).rejects.toBeInstanceOf(Unauthorized);
    expect(await eventsOf(user)).toEqual([['signin-failed', 401], ['signin-succeeded', 200]]);

    const typed = `Pa55word-typed-as-name-${tag}`;
    await expect(signInRecorded(secret, typed, PASSWORD, request('/api/authService/auth/signin'))).rejects.toBeInstanceOf(Unauthorized);
    const unknown = (await audit.query({ actor: UNKNOWN_USER, event: 'signin-failed' }, 50)).items;
    expect(unknown.length).toBeGreaterThan(0);
    // (the guess budget keeps a counter under the name typed; the audit log never names it)
    const { Items = [] } = await doc.send(new ScanCommand({ TableName: tableName(), FilterExpression: '#type = :audit', ExpressionAttributeNames: { '#type': 'type' }, ExpressionAttributeValues: { ':audit': 'AuditRecord' } }));
    expect(Items.length).toBeGreaterThan(seeded.length);
    expect(JSON.stringify(Items)).not.toContain(typed);
  });

  it('records a logout, then the revoked token presented to a route that records', async () => {
    const user = `dave-${tag}`;
    await createUser({ username: user, email: `${user}@example.com`, name: 'Dave', role: 'admin' }, PASSWORD);
    const token = (await signIn(secret, user, PASSWORD)).accessToken;
    const bearer = { authorization: `Bearer ${token}` };
    expect((await logout(request('/api/authService/auth/logout', bearer), lambdaContext())).statusCode).toBe(200);
    // key mode: the refused token names nobody and the API key acts, but the refusal is recorded
    const update = jsonEvent({ intervalAllDevices: 10 }, { httpMethod: 'PUT', resource: '/intervals/{id}', pathParameters: { id: '987654' }, headers: { 'Content-Type': 'application/json', ...bearer } });
    await updateInterval(update, lambdaContext());
    const records = (await audit.query({ actor: user }, 10)).items;
    expect(records.map((r) => [r.event, r.reason, r.target])).toEqual([
      ['token-revoked', 'revoked', { type: 'user', id: user }],
      ['logout', undefined, { type: 'user', id: user }],
    ]);
  });
});
