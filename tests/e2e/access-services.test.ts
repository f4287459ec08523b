import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { api, type ApiResponse } from '../support/api';

// Registered services as principals over HTTP (DESIGN §5, issue 26 item 4), in ACCESS_MODE=key:
// a valid bearer token narrows the API key to the service's role and scope.
type Service = { id: string; role: string; scope: { region: string; location?: string }[]; secret?: string };
type TokenAnswer = { accessToken: string; tokenType: string; expiresIn: number };

const BASE = '/api/authService';
const admin = inject('admin');
const answers: { label: string; text: string }[] = [];

/** Every call of this file goes through here, so the last test can tell which answers carried a secret. */
const call = async <T = unknown>(label: string, method: string, path: string, options: Parameters<typeof api>[2] = {}): Promise<ApiResponse<T>> => {
  const res = await api<T>(method, path, options);
  answers.push({ label, text: JSON.stringify(res.body) + JSON.stringify([...res.headers]) });
  return res;
};

let adminToken: string;
let service: Service;
const secrets: string[] = [];

const exchange = (id: string, secret: string) => call<TokenAnswer>('token', 'POST', `${BASE}/service/token`, { body: { id, secret } });
const tokenOf = async (id: string, secret: string) => {
  const res = await exchange(id, secret);
  expect(res.status).toBe(200);
  return res.body.accessToken;
};

beforeAll(async () => {
  const signin = await call<{ accessToken: string }>('signin', 'POST', `${BASE}/auth/signin`, { body: admin });
  adminToken = signin.body.accessToken;
  const created = await call<Service>('create', 'POST', `${BASE}/service`, {
    token: adminToken,
    body: { name: `svc-${randomUUID().slice(0, 8)}`, url: 'https://svc.example.com/api', role: 'operator', scope: [{ region: 'EMEA' }] },
  });
  expect(created.status).toBe(201);
  service = created.body;
  secrets.push(service.secret!);
});

describe('a service registered with role operator, scoped to a region', () => {
  it('is answered with its role, its scope and its client secret', () => {
    expect(service).toMatchObject({ role: 'operator', scope: [{ region: 'EMEA' }], secret: expect.stringMatching(/^[\w-]{43}$/) });
  });

  it('exchanges its id and secret for a bearer token like a user\'s', async () => {
    const res = await exchange(service.id, service.secret!);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ accessToken: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/), tokenType: 'Bearer', expiresIn: 900 });
  });

  it('answers the same 401 for a wrong secret and an unknown id', async () => {
    const wrong = await exchange(service.id, 'not-the-secret');
    const unknown = await exchange(randomUUID(), service.secret!);
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body).toEqual({ message: 'Invalid service id or secret' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('leaves each exchange in the audit log, issued or refused, with the service as actor and never its secret', async () => {
    const query = (event: string) => `/audit?${new URLSearchParams({ event, targetId: service.id, limit: '100' })}`;
    const read = async (event: string) => {
      // the log is read through an index: a record may show a moment late (DESIGN §3)
      for (let tries = 0; ; tries++) {
        const res = await call<{ items: { actor: { kind: string; id: string } }[] }>('audit', 'GET', query(event), { token: adminToken });
        if (res.body.items.length > 0 || tries > 50) return res;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const [issued, refused] = await Promise.all([read('service-token-issued'), read('service-token-refused')]);
    expect(issued.body.items[0]?.actor).toEqual({ kind: 'service', id: service.id });
    expect(refused.body.items[0]?.actor).toEqual({ kind: 'service', id: service.id });
    expect(JSON.stringify([issued.body, refused.body])).not.toContain(service.secret!);
  });

  it('calls a route its role permits (200) and is refused one it does not (403)', async () => {
    const token = await tokenOf(service.id, service.secret!);
    expect((await call('act', 'GET', '/alarms', { token })).status).toBe(200);
    const refused = await call<{ message: string }>('act', 'GET', '/channels', { token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: 'This operation needs the channels:write permission' });
    // the API key alone may (key mode): the token narrowed it
    expect((await call('act', 'GET', '/channels')).status).toBe(200);
  });

  it('is never shown its secret again: GET, list and PUT answer without it', async () => {
    const [one, all, put] = await Promise.all([
      call<Service>('read', 'GET', `${BASE}/service/${service.id}`, { token: adminToken }),
      call<Service[]>('read', 'GET', `${BASE}/service`, { token: adminToken }),
      call<Service>('read', 'PUT', `${BASE}/service/${service.id}`, { token: adminToken, body: { description: 'reads EMEA' } }),
    ]);
    expect([one.status, all.status, put.status]).toEqual([200, 200, 200]);
    for (const body of [one.body, put.body, all.body.find((s) => s.id === service.id)]) expect(body).not.toHaveProperty('secret');
  });

  it('rotating the secret refuses the old token (401) and the old secret; the new one works', async () => {
    const old = await tokenOf(service.id, service.secret!);
    const rotated = await call<Service>('rotate', 'POST', `${BASE}/service/${service.id}/rotate-secret`, { token: adminToken });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ id: service.id, role: 'operator', secret: expect.stringMatching(/^[\w-]{43}$/) });
    secrets.push(rotated.body.secret!);
    expect((await call('act', 'GET', `${BASE}/service/${service.id}`, { token: old })).status).toBe(401);
    expect((await exchange(service.id, service.secret!)).status).toBe(401);
    const fresh = await tokenOf(service.id, rotated.body.secret!);
    expect((await call('act', 'GET', '/alarms', { token: fresh })).status).toBe(200);
    service = { ...service, secret: rotated.body.secret };
  });

  it('deactivating refuses its token (401) and its secret at once', async () => {
    const token = await tokenOf(service.id, service.secret!);
    const put = await call('read', 'PUT', `${BASE}/service/${service.id}`, { token: adminToken, body: { active: false } });
    expect(put.status).toBe(200);
    expect((await call('act', 'GET', `${BASE}/service/${service.id}`, { token })).status).toBe(401);
    expect((await exchange(service.id, service.secret!)).status).toBe(401);
  });
});

describe('secrets in answers', () => {
  it('the secrets appear only in the answers of create and rotate-secret', () => {
    expect(secrets).toHaveLength(2);
    for (const secret of secrets) {
      const carrying = answers.filter((answer) => answer.text.includes(secret)).map((answer) => answer.label);
      expect(carrying.length).toBe(1);
      expect(['create', 'rotate']).toContain(carrying[0]);
    }
    expect(answers.map((answer) => answer.text).join('\n')).not.toMatch(/secretHash|sha256\$|incarnation/);
  });
});
