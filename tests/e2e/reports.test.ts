import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { unique } from '../support/fleet';
import { adminToken as signInAdmin, createRole, userWith } from '../support/principals';

/*
 * Scheduled fleet reports over HTTP (issue 28 item 5; schemas/reports.ts), against the key-mode
 * server: create, read, list, replace and delete schedules; 422s naming the field; a region-scoped
 * operator keeps to its region (404 elsewhere); POST /reports/{id}/run sends the report of the
 * period so far, a mail with text and HTML parts, shown in the channel's delivery log.
 */
type ErrorBody = { message: string; errors?: { field?: string; message: string }[] };
interface Schedule {
  id: string;
  name: string;
  period: 'daily' | 'weekly';
  weekday?: string;
  time: string;
  timeZone: string;
  channelIds: string[];
  scope: { region: string; location?: string }[];
  active: boolean;
  createdBy: string;
  nextReportAt: string | null;
}
type Page<T> = { items: T[]; nextCursor: string | null };
type DeliveryView = { deliveryId: string; type: string; status: string; attempts: number; channelId?: string };

const email = `${unique('manager')}@example.com`;
let channelId: string;
let admin: string;
const created: string[] = [];
const weekly = (overrides: Record<string, unknown> = {}) => ({
  name: 'Weekly EMEA rooms',
  period: 'weekly',
  weekday: 'MO',
  time: '08:00',
  timeZone: 'Europe/Berlin',
  channelIds: [channelId],
  ...overrides,
});
const create = async (body: unknown, token?: string) => {
  const res = await api<Schedule>('POST', '/reports', { body, ...(token ? { token } : {}) });
  if (res.status === 201) created.push(res.body.id);
  return res;
};
const fieldsOf = (body: ErrorBody) => body.errors?.map((e) => e.field);

beforeAll(async () => {
  admin = await signInAdmin();
  const channel = await api<{ id: string }>('POST', '/channels', { body: { name: 'report readers', type: 'email', emails: [email] } });
  expect(channel.status).toBe(201);
  channelId = channel.body.id;
});
afterAll(async () => {
  for (const id of created) await api('DELETE', `/reports/${id}`);
  await api('DELETE', `/channels/${channelId}`);
});

describe('/reports CRUD', () => {
  it('creates a weekly schedule (201) whose next report is Monday 08:00 in Berlin, reads, lists, replaces and deletes it', async () => {
    const res = await create(weekly());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ name: 'Weekly EMEA rooms', period: 'weekly', weekday: 'MO', time: '08:00', timeZone: 'Europe/Berlin', channelIds: [channelId], scope: [], active: true, createdBy: 'api-key' });
    const next = new Date(res.body.nextReportAt!);
    expect(next.getUTCDay()).toBe(1);
    expect([6, 7]).toContain(next.getUTCHours()); // 08:00 CEST or CET
    expect((await api<Schedule>('GET', `/reports/${res.body.id}`)).body).toEqual(res.body);
    const list = await api<Page<Schedule>>('GET', '/reports?limit=1000');
    expect(list.body.items.map((s) => s.id)).toContain(res.body.id);

    const replaced = await api<Schedule>('PUT', `/reports/${res.body.id}`, { body: weekly({ period: 'daily', weekday: undefined, time: '06:30', timeZone: 'America/New_York', active: false }) });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body).toMatchObject({ id: res.body.id, period: 'daily', time: '06:30', active: false, nextReportAt: null });
    expect(replaced.body).not.toHaveProperty('weekday');

    expect((await api('DELETE', `/reports/${res.body.id}`)).status).toBe(200);
    expect((await api('GET', `/reports/${res.body.id}`)).status).toBe(404);
  });

  it('answers 422 naming the field: weekday missing or misplaced, an unknown zone, a bad time, an unknown or no channel', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [weekly({ weekday: undefined }), 'body.weekday'],
      [weekly({ period: 'daily' }), 'body.weekday'],
      [weekly({ timeZone: 'Mars/Olympus' }), 'body.timeZone'],
      [weekly({ time: '24:00' }), 'body.time'],
      [weekly({ channelIds: ['no-such-channel'] }), 'body.channelIds'],
      [weekly({ channelIds: [] }), 'body.channelIds'],
      [weekly({ period: 'monthly' }), 'body.period'],
    ];
    for (const [body, field] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(fieldsOf(res.body as unknown as ErrorBody), JSON.stringify(res.body)).toContain(field);
    }
    expect((await api('GET', '/reports/not-a-uuid')).status).toBe(422);
    expect((await api('GET', '/reports/01890000-0000-7000-8000-000000000000')).status).toBe(404);
  });
});

describe('/reports within a scope', () => {
  let operator: string;
  beforeAll(async () => {
    const role = await createRole(admin, ['fleet:read', 'watchers:write']);
    operator = (await userWith(admin, role, [{ region: 'EMEA' }])).token;
  });

  it("keeps a scoped operator's schedule to its scope, and answers 404 for a scope or a schedule outside it", async () => {
    // without channels:write it names only a channel a schedule within its scope names already (docs/guide/rules/reports.md "Report runs are budgeted, and a schedule names only channels shared with its writer")
    expect((await create(weekly(), operator)).status).toBe(422);
    expect((await create(weekly({ scope: [{ region: 'EMEA' }] }))).status).toBe(201);
    const own = await create(weekly(), operator);
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect(own.body.scope).toEqual([{ region: 'EMEA' }]);
    expect((await create(weekly({ scope: [{ region: 'AMER' }] }), operator)).status).toBe(404);
    expect((await create(weekly({ scope: [{ region: 'EMEA', location: 'Berlin' }] }), operator)).status).toBe(201);

    const fleetWide = await create(weekly());
    for (const [method, body] of [['GET'], ['PUT', weekly()], ['DELETE'], ['POST']] as const) {
      const path = method === 'POST' ? `/reports/${fleetWide.body.id}/run` : `/reports/${fleetWide.body.id}`;
      expect((await api(method, path, { token: operator, ...(body ? { body } : {}) })).status, `${method} ${path}`).toBe(404);
    }
    const seen = (await api<Page<Schedule>>('GET', '/reports?limit=1000', { token: operator })).body.items.map((s) => s.id);
    expect(seen).toContain(own.body.id);
    expect(seen).not.toContain(fleetWide.body.id);
  });
});

describe('POST /reports/{id}/run', () => {
  it('sends the report of the period so far: a mail with text and HTML parts, in the channel\'s delivery log, and audited', async () => {
    const schedule = (await create(weekly({ name: 'Run <now>' }))).body;
    const res = await api<{ report: { name: string; to: string; availability: { overall: number }; alarms: { total: number } }; deliveries: DeliveryView[] }>('POST', `/reports/${schedule.id}/run`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.report).toMatchObject({ name: 'Run <now>', availability: { overall: expect.any(Number) }, alarms: { total: expect.any(Number) } });
    // one delivery per channel, how it went only in the channel's delivery log (docs/guide/rules/reports.md "Report runs are budgeted, and a schedule names only channels shared with its writer")
    expect(res.body.deliveries).toEqual([{ channelId, deliveryId: expect.any(String), type: 'report', at: expect.any(String) }]);

    const [mail] = (await api<{ subject: string; text: string; html?: string }[]>('GET', `/alarms/outbox?to=${encodeURIComponent(email)}`)).body;
    expect(mail!.subject).toMatch(/^\[Report\] Run <now>: weekly fleet report/);
    expect(mail!.text).toContain('Availability: ');
    expect(mail!.html).toContain('<h2>Run &lt;now&gt;</h2>');

    const log = await api<Page<DeliveryView>>('GET', `/channels/${channelId}/deliveries`);
    expect(log.body.items.find((d) => d.deliveryId === res.body.deliveries[0]!.deliveryId)).toMatchObject({ status: 'delivered', attempts: 1 });

    const again = await api<ErrorBody>('POST', `/reports/${schedule.id}/run`);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    const audit = await api<Page<{ action: string }>>('GET', `/audit?targetType=report&targetId=${schedule.id}&limit=10`, { token: admin });
    expect(audit.body.items.map((r) => r.action)).toEqual(expect.arrayContaining(['POST /reports', 'POST /reports/{id}/run']));
  });
});
