import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { anyOf, watcherInput } from '../support/fleet';

type ErrorBody = { message: string; errors?: { field: string; message: string }[] };
type Watcher = Record<string, unknown> & { id: string; active: boolean; dashboard: string };

const unique = () => randomUUID().slice(0, 8);
const body = (overrides: Record<string, unknown> = {}) => ({
  ...watcherInput({
    user: 'ana',
    dashboard: `dash-${unique()}`,
    service: `svc-${unique()}`,
    type: `type-${unique()}`,
    allDevices: false,
    devicesId: ['dev-1', 'SN-0001'],
    operations: anyOf(
      { operator: '==', value: 'false', element: 'status.connected' },
      { operator: 'in', value: 'Sala 1,Sala 2', element: 'details.room' },
    ),
    description: 'Room devices offline',
    sendEmail: true,
    emails: ['ops@example.com'],
  }),
  ...overrides,
});
const create = async (overrides: Record<string, unknown> = {}) => {
  const res = await api<string>('POST', '/watcher', { body: body(overrides) });
  expect(res.status).toBe(200);
  return res.body;
};
const fieldsOf = (res: { body: unknown }) => ((res.body as ErrorBody).errors ?? []).map((e) => e.field);
const unknownId = () => randomUUID();

describe('POST /watcher/createTable', () => {
  it('answers the integer 1, and again when repeated', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await api('POST', '/watcher/createTable');
      expect(res.status).toBe(200);
      expect(res.body).toBe(1);
    }
  });
});

describe('POST /watcher', () => {
  it('answers the new id as a JSON string, and the watcher is active', async () => {
    const res = await api<string>('POST', '/watcher', { body: body() });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(typeof res.body).toBe('string');
    expect((await api<Watcher>('GET', `/watcher/${res.body}`)).body.active).toBe(true);
  });

  it('stores exactly the fields sent, with id, active and timestamps added', async () => {
    const sent = body();
    const id = await create(sent);
    const res = await api<Watcher>('GET', `/watcher/${id}`);
    expect(res.body).toEqual({ id, pendingSeconds: 0, ...sent, active: true, createdAt: expect.any(String), updatedAt: expect.any(String) });
  });

  it('carries pendingSeconds through create, GET and PUT', async () => {
    const id = await create({ pendingSeconds: 300 });
    expect((await api<Watcher>('GET', `/watcher/${id}`)).body).toMatchObject({ pendingSeconds: 300 });
    const res = await api<Watcher>('PUT', `/watcher/${id}`, { body: body({ pendingSeconds: 0 }) });
    expect(res.body).toMatchObject({ pendingSeconds: 0 });
  });

  it.each([
    ['a severity out of 1..4', { severity: 7 }, 'body.severity'],
    ['an unknown operatorType', { operations: { type: 'device', operatorType: 'NOR', conditions: [{ operator: '==', value: 'x', element: 'devicemodel' }] } }, 'body.operations.operatorType'],
    ['an unknown element', { operations: { type: 'device', operatorType: 'AND', conditions: [{ operator: '==', value: 'x', element: 'serial' }] } }, 'body.operations.conditions[0].element'],
    ['an unknown operator', { operations: { type: 'device', operatorType: 'AND', conditions: [{ operator: '<', value: 'x', element: 'devicemodel' }] } }, 'body.operations.conditions[0].operator'],
    ['a non-string value', { operations: { type: 'device', operatorType: 'AND', conditions: [{ operator: '==', value: true, element: 'deviceconnected' }] } }, 'body.operations.conditions[0].value'],
    ['an invalid e-mail', { emails: ['ops-at-example.com'] }, 'body.emails[0]'],
    ['a pendingSeconds over a day', { pendingSeconds: 86_401 }, 'body.pendingSeconds'],
    ['a fractional pendingSeconds', { pendingSeconds: 1.5 }, 'body.pendingSeconds'],
    ['sendEmail without e-mails', { emails: [] }, 'body.emails'],
    ['no target devices', { allDevices: false, devicesId: [] }, 'body.devicesId'],
    ['devicesId with a number', { devicesId: [12] }, 'body.devicesId[0]'],
    ['active in the body', { active: false }, 'body.active'],
    ['an id in the body', { id: 'chosen' }, 'body.id'],
    ['a missing required field', { user: undefined }, 'body.user'],
  ])('answers 400 for %s, naming the field', async (_case, overrides, field) => {
    const res = await api<ErrorBody>('POST', '/watcher', { body: body(overrides) });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toContain(field);
  });

  it('answers 400 JSON for malformed JSON', async () => {
    const res = await api<ErrorBody>('POST', '/watcher', { raw: '{"user":', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
  });

  it('answers 400 for no body at all', async () => {
    const res = await api<ErrorBody>('POST', '/watcher');
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toContain('body');
  });
});

describe('GET /watcher/all', () => {
  it('answers the list (the static segment wins over {watcherid})', async () => {
    const a = await create();
    const b = await create();
    const res = await api<Watcher[]>('GET', '/watcher/all');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map((w) => w.id)).toEqual(expect.arrayContaining([a, b]));
  });
});

describe('GET /watcher/{watcherid}', () => {
  it('answers 404 JSON for an unknown id', async () => {
    const id = unknownId();
    const res = await api<ErrorBody>('GET', `/watcher/${id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: `Watcher ${id} not found` });
  });

  it('answers 400 for an id with unsafe characters', async () => {
    const res = await api<ErrorBody>('GET', '/watcher/a.b');
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(['pathParameters.watcherid']);
  });
});

describe('PUT /watcher/{watcherid}', () => {
  it('replaces the rule and answers the updated watcher', async () => {
    const id = await create();
    const next = body({ severity: 4, allDevices: true, devicesId: [], sendEmail: false, emails: [] });
    const res = await api<Watcher>('PUT', `/watcher/${id}`, { body: next });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id, pendingSeconds: 0, ...next, active: true, createdAt: expect.any(String), updatedAt: expect.any(String) });
    expect((await api('GET', `/watcher/${id}`)).body).toEqual(res.body);
  });

  it('keeps the active flag the status endpoint set', async () => {
    const id = await create();
    await api('PUT', `/watcher/${id}/status`, { body: { active: false } });
    const res = await api<Watcher>('PUT', `/watcher/${id}`, { body: body() });
    expect(res.body.active).toBe(false);
  });

  it('answers 400 for an invalid body and leaves the watcher unchanged', async () => {
    const id = await create();
    const before = (await api('GET', `/watcher/${id}`)).body;
    const res = await api<ErrorBody>('PUT', `/watcher/${id}`, { body: body({ severity: 0 }) });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toContain('body.severity');
    expect((await api('GET', `/watcher/${id}`)).body).toEqual(before);
  });

  it('answers 400 for a partial body (PUT takes the full watcher)', async () => {
    const id = await create();
    const res = await api<ErrorBody>('PUT', `/watcher/${id}`, { body: { severity: 3 } });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toContain('body.user');
  });

  it('answers 404 for an unknown id and creates nothing', async () => {
    const id = unknownId();
    const res = await api<ErrorBody>('PUT', `/watcher/${id}`, { body: body() });
    expect(res.status).toBe(404);
    expect((await api('GET', `/watcher/${id}`)).status).toBe(404);
  });

  it('answers 400 for an id with unsafe characters', async () => {
    const res = await api<ErrorBody>('PUT', '/watcher/a%20b', { body: body() });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(['pathParameters.watcherid']);
  });

  it('answers each of several concurrent updates 200 or 409, never losing one silently', async () => {
    const id = await create();
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) => api<Watcher>('PUT', `/watcher/${id}`, { body: body({ dashboard: `race-${i}` }) })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const winners = results.filter((r) => r.status === 200);
    expect(winners.length).toBeGreaterThanOrEqual(1);
    const final = (await api<Watcher>('GET', `/watcher/${id}`)).body;
    expect(winners.map((w) => w.body.dashboard)).toContain(final.dashboard);
  });
});

describe('PUT /watcher/{watcherid}/status', () => {
  it.each([false, true])('sets active to %s and answers the updated watcher', async (active) => {
    const id = await create();
    if (active) await api('PUT', `/watcher/${id}/status`, { body: { active: false } });
    const res = await api<Watcher>('PUT', `/watcher/${id}/status`, { body: { active } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, active });
    expect((await api<Watcher>('GET', `/watcher/${id}`)).body.active).toBe(active);
  });

  it.each([
    ['a string', { active: 'false' }, 'body.active'],
    ['a number', { active: 0 }, 'body.active'],
    ['no active', {}, 'body.active'],
    ['another field', { active: true, severity: 1 }, 'body.severity'],
  ])('answers 400 for %s', async (_case, sent, field) => {
    const id = await create();
    const res = await api<ErrorBody>('PUT', `/watcher/${id}/status`, { body: sent });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toContain(field);
    expect((await api<Watcher>('GET', `/watcher/${id}`)).body.active).toBe(true);
  });

  it('answers 404 for an unknown id', async () => {
    const res = await api<ErrorBody>('PUT', `/watcher/${unknownId()}/status`, { body: { active: false } });
    expect(res.status).toBe(404);
  });
});

describe('DELETE /watcher/{watcherid}', () => {
  it('deletes and confirms with a string, then reports the id unknown', async () => {
    const id = await create();
    const res = await api<string>('DELETE', `/watcher/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toBe(`Watcher ${id} deleted`);
    expect((await api('GET', `/watcher/${id}`)).status).toBe(404);
  });

  it('answers 404 for an unknown id', async () => {
    const res = await api<ErrorBody>('DELETE', `/watcher/${unknownId()}`);
    expect(res.status).toBe(404);
  });

  it('answers 400 for an id with unsafe characters', async () => {
    const res = await api<ErrorBody>('DELETE', '/watcher/x.y');
    expect(res.status).toBe(400);
  });
});

describe('alarm configuration filter lists', () => {
  const lists = [
    ['/filter/dashboards', 'dashboard'],
    ['/filter/alarmservices', 'service'],
    ['/filter/alarmtypes', 'type'],
  ] as const;

  it.each(lists)('GET %s answers the distinct values of %s, sorted', async (path, field) => {
    const tag = unique();
    await create({ [field]: `zz-${tag}` });
    await create({ [field]: `aa-${tag}` });
    await create({ [field]: `aa-${tag}` });
    const res = await api<string[]>('GET', path);
    expect(res.status).toBe(200);
    expect(res.body.filter((v) => v.endsWith(tag))).toEqual([`aa-${tag}`, `zz-${tag}`]);
    expect(res.body).toEqual([...new Set(res.body)].sort());
  });

  it('drops a value once no watcher carries it', async () => {
    const dashboard = `gone-${unique()}`;
    const id = await create({ dashboard });
    expect((await api<string[]>('GET', '/filter/dashboards')).body).toContain(dashboard);
    await api('DELETE', `/watcher/${id}`);
    expect((await api<string[]>('GET', '/filter/dashboards')).body).not.toContain(dashboard);
  });
});
