import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { INTERVAL_FIELDS } from '#lib/config/intervals/types';
import { api, type ApiResponse } from '../support/api';

/*
 * The audit log over HTTP (DESIGN §5; schemas/audit.ts), against the key-mode server: changes
 * by an admin's token and by the API key, sign-in failures and logouts appear in GET /audit with
 * actor, action and target; no record holds a password or a secret; the CSV export pages 1,000
 * records exactly once each.
 */
interface AuditRecord {
  id: string;
  at: string;
  event: string;
  actor: { kind: string; id: string };
  action: string;
  target: { type: string; id?: string };
  status: number;
  fields: string[];
  requestId: string;
  sourceIp: string;
  userAgent: string;
}
type Page = { items: AuditRecord[]; nextCursor: string | null };

const admin = inject('admin');
const tag = randomUUID().slice(0, 8);
const BASE = '/api/authService';
/** Every password and secret this file sends or receives: none may reach a record. */
const secrets = new Set<string>([admin.password]);
const password = (label: string) => {
  const value = `Audit-${label}-${randomUUID().slice(0, 12)}-Lantern`;
  secrets.add(value);
  return value;
};

let adminToken: string;
const signIn = async (username: string, pass: string) => {
  const res = await api<{ accessToken: string }>('POST', `${BASE}/auth/signin`, { body: { username, password: pass } });
  expect(res.status).toBe(200);
  secrets.add(res.body.accessToken);
  return res.body.accessToken;
};
const intervals = Object.fromEntries(INTERVAL_FIELDS.map((field) => [field, 45]));

/** GET /audit as the admin; the log is read through indexes, so a record may show a moment late (DESIGN §3). */
const auditPage = (query: Record<string, string>) => api<Page>('GET', `/audit?${new URLSearchParams(query)}`, { token: adminToken });
const eventually = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
  const until = Date.now() + 5_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};
const recordsOf = (query: Record<string, string>, count = 1) =>
  eventually(async () => (await auditPage({ ...query, limit: '100' })).body.items, (items) => items.length >= count);

beforeAll(async () => {
  adminToken = await signIn(admin.username, admin.password);
});

describe('GET /audit', () => {
  it('is for admins only: the API key alone is 401 (admin needs a token in every mode)', async () => {
    const res = await api('GET', '/audit');
    expect(res.status).toBe(401);
  });

  it('shows a change made with an admin token and one made with the API key, with actor, action and target', async () => {
    const byAdmin = await api<{ id: number }>('POST', '/intervals', { body: intervals, token: adminToken });
    const byKey = await api<{ id: number }>('POST', '/intervals', { body: intervals });
    expect([byAdmin.status, byKey.status]).toEqual([200, 200]);

    const [adminRecord] = await recordsOf({ targetType: 'interval', targetId: String(byAdmin.body.id) });
    expect(adminRecord).toMatchObject({
      event: 'change',
      actor: { kind: 'user', id: admin.username },
      action: 'POST /intervals',
      target: { type: 'interval', id: String(byAdmin.body.id) },
      status: 200,
      fields: [...INTERVAL_FIELDS].sort(),
      requestId: expect.any(String),
      sourceIp: expect.any(String),
    });
    const [keyRecord] = await recordsOf({ targetType: 'interval', targetId: String(byKey.body.id) });
    expect(keyRecord).toMatchObject({ actor: { kind: 'api-key', id: 'api-key' }, action: 'POST /intervals', target: { type: 'interval', id: String(byKey.body.id) } });

    // a delete is a change too, with the path's id as its target
    expect((await api('DELETE', `/intervals/${byKey.body.id}`, { token: adminToken })).status).toBe(200);
    const removals = await recordsOf({ actor: admin.username, action: 'DELETE /intervals/{id}' });
    expect(removals[0]).toMatchObject({ target: { type: 'interval', id: String(byKey.body.id) } });
    await api('DELETE', `/intervals/${byAdmin.body.id}`);
  });

  it('shows a failed sign-in and a logout', async () => {
    const username = `audit-${tag}`;
    const first = password('first');
    const created = await api('POST', `${BASE}/auth`, {
      token: adminToken,
      body: { username, password: first, email: `${username}@example.com`, name: 'Audit User', role: 'viewer' },
    });
    expect(created.status).toBe(201);
    expect((await api('POST', `${BASE}/auth/signin`, { body: { username, password: 'not-the-password-at-all' } })).status).toBe(401);
    const token = await signIn(username, first);
    expect((await api('POST', `${BASE}/auth/logout`, { token })).status).toBe(200);

    const events = await recordsOf({ actor: username }, 3);
    expect(events.map((r) => [r.event, r.status, r.action])).toEqual([
      ['logout', 200, 'POST /api/authService/auth/logout'],
      ['signin-succeeded', 200, 'POST /api/authService/auth/signin'],
      ['signin-failed', 401, 'POST /api/authService/auth/signin'],
    ]);
    expect(events.every((r) => r.target.type === 'user' && r.target.id === username)).toBe(true);
    const [creation] = await recordsOf({ targetType: 'user', targetId: username, action: 'POST /api/authService/auth' });
    expect(creation).toMatchObject({ actor: { kind: 'user', id: admin.username }, fields: ['email', 'name', 'password', 'role', 'username'] });
  });

  it('answers 422 for a cursor it did not answer for the same filters', async () => {
    const page = await auditPage({ limit: '1' });
    expect(page.body.nextCursor).toEqual(expect.any(String));
    const other = await api('GET', `/audit?limit=1&actor=${encodeURIComponent(admin.username)}&cursor=${page.body.nextCursor}`, { token: adminToken });
    expect(other.status).toBe(422);
    const forged = await api('GET', `/audit?limit=1&cursor=${Buffer.from('{"after":"9"}').toString('base64url')}.AAAA`, { token: adminToken });
    expect(forged.status).toBe(422);
  });
});

describe('no record carries a password or a secret', () => {
  it('after users, password changes (own and admin) and webhook secrets, every record is searched', async () => {
    const username = `secrets-${tag}`;
    const initial = password('initial');
    expect((await api('POST', `${BASE}/auth`, { token: adminToken, body: { username, password: initial, email: `${username}@example.com`, name: 'Secret Keeper', role: 'viewer' } })).status).toBe(201);
    const token = await signIn(username, initial);
    expect((await api('POST', `${BASE}/auth/me/password`, { token, body: { currentPassword: initial, newPassword: password('own') } })).status).toBe(200);
    expect((await api('POST', `${BASE}/auth/${username}/password/admin`, { token: adminToken, body: { newPassword: password('admin') } })).status).toBe(200);
    const channel = await api<{ id: string; secret: string }>('POST', '/channels', { body: { name: `audit ${tag}`, type: 'webhook', url: `http://127.0.0.1:9/audit-${tag}` } });
    expect(channel.status).toBe(201);
    secrets.add(channel.body.secret);
    const rotated = await api<{ secret: string }>('POST', `/channels/${channel.body.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    secrets.add(rotated.body.secret);
    await api('DELETE', `/channels/${channel.body.id}`);

    const changes = await recordsOf({ targetType: 'user', targetId: username }, 3);
    expect(changes.filter((r) => r.event === 'password-changed').map((r) => [r.actor.id, r.fields])).toEqual([
      [admin.username, ['newPassword']],
      [username, ['currentPassword', 'newPassword']],
    ]);
    await recordsOf({ targetType: 'channel', targetId: channel.body.id }, 3);

    let cursor: string | null = null;
    let searched = 0;
    do {
      const page: ApiResponse<Page> = await auditPage({ limit: '1000', ...(cursor ? { cursor } : {}) });
      expect(page.status).toBe(200);
      const text = JSON.stringify(page.body.items);
      for (const secret of secrets) expect(text.includes(secret), 'a record holds a password, token or secret').toBe(false);
      searched += page.body.items.length;
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(searched).toBeGreaterThan(8);
  });
});

describe('CSV export', () => {
  const COUNT = 1000;
  const PAGE = 100;
  let from: string;

  beforeAll(async () => {
    // 1,000 small changes, 25 at a time: the table ensure is audited and changes nothing else
    from = new Date(Date.now() - 1000).toISOString();
    for (let sent = 0; sent < COUNT; sent += 25) {
      const answers = await Promise.all(Array.from({ length: 25 }, () => api('POST', '/intervals/createTable')));
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
    }
  }, 180_000);

  it('pages 1,000 records: each exactly once, newest first, a header row on every page, the next cursor in a header', async () => {
    const query = { action: 'POST /intervals/createTable', actor: 'api-key', from, format: 'csv', limit: String(PAGE) };
    await recordsOf({ action: query.action, actor: 'api-key', from }, PAGE);
    const ids: string[] = [];
    const times: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: ApiResponse<string> = await api<string>('GET', `/audit?${new URLSearchParams({ ...query, ...(cursor ? { cursor } : {}) })}`, { token: adminToken });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
      const [header, ...rows] = res.body.split('\r\n');
      expect(header).toBe('at,event,actorKind,actorId,action,targetType,targetId,status,fields,requestId,sourceIp,userAgent,reason,id');
      expect(rows.pop()).toBe('');
      for (const row of rows) {
        const cells = row.split(',');
        expect(cells.slice(1, 6)).toEqual(['change', 'api-key', 'api-key', 'POST /intervals/createTable', 'interval']);
        times.push(cells[0]!);
        ids.push(cells[cells.length - 1]!);
      }
      cursor = res.headers.get('next-cursor');
      pages++;
    } while (cursor && pages < 50);
    expect(ids).toHaveLength(COUNT);
    expect(new Set(ids).size).toBe(COUNT);
    expect(pages).toBe(COUNT / PAGE);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('escapes a cell a spreadsheet would run as a formula', async () => {
    const made = await api<{ id: number }>('POST', '/intervals', { body: intervals, headers: { 'user-agent': '=HYPERLINK("http://evil.example","x")' } });
    expect(made.status).toBe(200);
    await recordsOf({ targetType: 'interval', targetId: String(made.body.id) });
    const csv = await api<string>('GET', `/audit?targetType=interval&targetId=${made.body.id}&format=csv`, { token: adminToken });
    expect(csv.body).toContain(`,"'=HYPERLINK(""http://evil.example"",""x"")",`);
    await api('DELETE', `/intervals/${made.body.id}`);
  });
});
