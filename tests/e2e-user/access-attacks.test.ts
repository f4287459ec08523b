import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { adminToken } from '../support/principals';

/*
 * Attacks on access and the audit log over HTTP, in ACCESS_MODE=user (every deployed stage's
 * default): each failed before the fix its commit carries (issue 26).
 */
const BASE = '/api/authService';
type Service = { id: string; secret: string };

let admin: string;
let service: Service;
const exchange = (body: unknown) => api<{ accessToken: string }>('POST', `${BASE}/service/token`, { body });

beforeAll(async () => {
  admin = await adminToken();
  const created = await api<Service>('POST', `${BASE}/service`, {
    token: admin,
    body: { name: `svc-${randomUUID().slice(0, 8)}`, url: 'https://svc.example.com/api', role: 'admin' },
  });
  expect(created.status).toBe(201);
  service = created.body;
});

describe("a registered service's token on a user's own-account routes", () => {
  it('is 403 on GET auth/me and POST auth/me/password; logout still revokes it', async () => {
    const token = (await exchange({ id: service.id, secret: service.secret })).body.accessToken;
    const me = await api<{ message: string }>('GET', `${BASE}/auth/me`, { token });
    expect(me).toMatchObject({ status: 403, body: { message: 'A registered service has no user account: sign in as a user' } });
    const password = await api('POST', `${BASE}/auth/me/password`, { token, body: { currentPassword: 'a guess', newPassword: 'another long passphrase 8' } });
    expect(password.status).toBe(403);
    expect((await api('POST', `${BASE}/auth/logout`, { token })).status).toBe(200);
    expect((await api('GET', '/intervals', { token })).status).toBe(401);
  });
});

describe('the audit log of a token exchange with id and secret swapped', () => {
  it('holds (unknown) as actor, never the secret, in JSON and in CSV', async () => {
    expect((await exchange({ id: service.secret, secret: service.id })).status).toBe(401);
    const query = new URLSearchParams({ event: 'service-token-refused', limit: '1000' });
    const json = await api<{ items: { actor: { id: string } }[] }>('GET', `/audit?${query}`, { token: admin });
    const csv = await api<string>('GET', `/audit?${query}&format=csv`, { token: admin });
    expect(json.status).toBe(200);
    expect(json.body.items.map((record) => record.actor.id)).toContain('(unknown)');
    expect(JSON.stringify(json.body) + csv.body).not.toContain(service.secret);
  });
});

describe('a leap second in GET /audit', () => {
  it('is 422 naming the field, not a 500', async () => {
    const res = await api<{ errors: { field: string }[] }>('GET', '/audit?from=2026-06-30T23:59:60Z', { token: admin });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((error) => error.field)).toContain('queryStringParameters.from');
  });
});
