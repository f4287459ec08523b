import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WindowAnswer } from '#lib/maintenance/pure/windows';
import { api } from '../support/api';
import { adminToken as signInAdmin, createRole, userWith } from '../support/principals';

/*
 * Recurring maintenance windows over HTTP (issue 28 item 1; schemas/maintenance.ts), against the
 * key-mode server: create, read, list, replace and delete; 400s naming the field; a region-scoped
 * operator is 404 outside its region; every write shows in GET /audit. The windows here match a
 * vendor of their own and regions by name only: the engine does not act on windows yet.
 */
type ErrorBody = { message: string; errors?: { field?: string; message: string }[] };
type Window = WindowAnswer;
type Page<T> = { items: T[]; nextCursor: string | null };
type AuditRecord = { action: string; actor: { kind: string; id: string }; target: { type: string; id?: string }; status: number; fields: string[] };

const DAY = 86_400_000;
const weekly = (overrides: Record<string, unknown> = {}) => ({
  matchers: { region: 'EMEA', location: 'Berlin' },
  schedule: { days: ['TU'], start: '22:00', durationMinutes: 240, timeZone: 'Europe/Berlin' },
  comment: 'e2e weekly patching',
  ...overrides,
});
const created: string[] = [];
const create = async (body: unknown, token?: string) => {
  const res = await api<Window>('POST', '/maintenance', { body, ...(token ? { token } : {}) });
  if (res.status === 201) created.push(res.body.id);
  return res;
};
const fieldsOf = (body: ErrorBody) => body.errors?.map((e) => e.field);

let admin: string;
afterAll(async () => {
  for (const id of created) await api('DELETE', `/maintenance/${id}`);
});
beforeAll(async () => {
  admin = await signInAdmin();
});

describe('/maintenance CRUD', () => {
  it('creates a weekly window (201) with its id, createdBy, status and next opening, and reads it back', async () => {
    const res = await create(weekly());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ matchers: { region: 'EMEA', location: 'Berlin' }, createdBy: 'api-key', comment: 'e2e weekly patching' });
    expect(res.body.schedule).toEqual({ days: ['TU'], start: '22:00', durationMinutes: 240, timeZone: 'Europe/Berlin' });
    expect(['active', 'scheduled']).toContain(res.body.status);
    // Tuesday 22:00 on Berlin's wall clock: 20:00 or 21:00 UTC
    expect(new Date(res.body.nextOpening!).getUTCDay()).toBe(2);
    expect([20, 21]).toContain(new Date(res.body.nextOpening!).getUTCHours());
    // clocks change on Sundays in Berlin: a Tuesday opening lasts 4 hours
    if (res.body.status === 'scheduled') expect(Date.parse(res.body.nextClosing!) - Date.parse(res.body.nextOpening!)).toBe(4 * 3_600_000);
    else expect(Date.parse(res.body.nextClosing!)).toBeGreaterThan(Date.now());

    const read = await api<Window>('GET', `/maintenance/${res.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: res.body.id, schedule: res.body.schedule, createdAt: res.body.createdAt });
  });

  it('creates an RRULE window with startsAt and endsAt, and lists it a page at a time', async () => {
    const startsAt = new Date(Date.now() + DAY).toISOString();
    const endsAt = new Date(Date.now() + 60 * DAY).toISOString();
    const res = await create(weekly({ matchers: { vendor: 'e2e-vendor' }, schedule: { rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=SA,SU;BYHOUR=3;BYMINUTE=30', durationMinutes: 90, timeZone: 'America/New_York' }, startsAt, endsAt }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'scheduled', startsAt, endsAt });
    expect(Date.parse(res.body.nextOpening!)).toBeGreaterThanOrEqual(Date.parse(startsAt));

    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: Page<Window> } = await api<Page<Window>>('GET', `/maintenance?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(1);
      ids.push(...page.body.items.map((w) => w.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(ids).toEqual(expect.arrayContaining(created));
    expect(new Set(ids).size).toBe(ids.length);
    expect((await api<Page<Window>>('GET', '/maintenance')).body.items.map((w) => w.id)).toEqual(expect.arrayContaining(created));
  });

  it('replaces a window whole with PUT (200), keeping id, createdBy and createdAt', async () => {
    const first = await create(weekly(), admin);
    expect(first.body.createdBy).not.toBe('api-key');
    const res = await api<Window>('PUT', `/maintenance/${first.body.id}`, {
      body: weekly({ matchers: { region: 'EMEA', room: 'Board Room' }, schedule: { rrule: 'FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=19', durationMinutes: 60, timeZone: 'Europe/London' }, comment: 'replaced' }),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: first.body.id, createdBy: first.body.createdBy, createdAt: first.body.createdAt, matchers: { region: 'EMEA', room: 'Board Room' }, comment: 'replaced' });
    expect(res.body.schedule).toEqual({ rrule: 'FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=19', durationMinutes: 60, timeZone: 'Europe/London' });
    expect((await api<Window>('GET', `/maintenance/${first.body.id}`)).body.comment).toBe('replaced');
  });

  it('deletes a window (200, a confirmation), then it is 404 to read, replace and delete', async () => {
    const { body } = await create(weekly());
    expect(await api('DELETE', `/maintenance/${body.id}`)).toMatchObject({ status: 200, body: 'Maintenance window deleted' });
    expect((await api('GET', `/maintenance/${body.id}`)).status).toBe(404);
    expect((await api('PUT', `/maintenance/${body.id}`, { body: weekly() })).status).toBe(404);
    expect((await api('DELETE', `/maintenance/${body.id}`)).status).toBe(404);
  });

  it('answers 400 for an id that is not a UUID', async () => {
    expect((await api('GET', '/maintenance/not-a-uuid')).status).toBe(400);
  });
});

describe('/maintenance refuses bad input with 400 naming the field', () => {
  const schedule = weekly().schedule;
  it.each([
    ['an unknown time zone', { schedule: { ...schedule, timeZone: 'Europe/Atlantis' } }, 'body.schedule.timeZone'],
    ['no time zone (no place default is known yet)', { schedule: { days: ['TU'], start: '22:00', durationMinutes: 240 } }, 'body.schedule.timeZone'],
    ['an RRULE outside the subset', { schedule: { rrule: 'FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=2', durationMinutes: 60, timeZone: 'UTC' } }, 'body.schedule.rrule'],
    ['an RRULE with COUNT', { schedule: { rrule: 'FREQ=DAILY;BYHOUR=2;COUNT=5', durationMinutes: 60, timeZone: 'UTC' } }, 'body.schedule.rrule'],
    ['a duration of 0', { schedule: { ...schedule, durationMinutes: 0 } }, 'body.schedule.durationMinutes'],
    ['a duration over 7 days', { schedule: { ...schedule, durationMinutes: 10_081 } }, 'body.schedule.durationMinutes'],
    ['a duration as long as the week between openings', { schedule: { ...schedule, durationMinutes: 10_080 } }, 'body.schedule.durationMinutes'],
    ['a start time that is not HH:MM', { schedule: { ...schedule, start: '24:00' } }, 'body.schedule.start'],
    ['endsAt before startsAt', { startsAt: '2030-01-02T00:00:00Z', endsAt: '2030-01-01T00:00:00Z' }, 'body.endsAt'],
    ['endsAt already past', { endsAt: '2020-01-01T00:00:00Z' }, 'body.endsAt'],
    ['both the weekly form and an RRULE', { schedule: { ...schedule, rrule: 'FREQ=DAILY;BYHOUR=1' } }, 'body.schedule'],
    ['no matcher', { matchers: {} }, 'body.matchers'],
    ['an unknown matcher', { matchers: { region: 'EMEA', building: 'B' } }, 'body.matchers.building'],
  ])('%s', async (_case, overrides, field) => {
    const res = await create(weekly(overrides));
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body as unknown as ErrorBody)).toContain(field);
  });
});

describe('/maintenance within a scope', () => {
  let operator: string;
  let outside: Window;

  beforeAll(async () => {
    const role = await createRole(admin, ['fleet:read', 'silences:write']);
    operator = (await userWith(admin, role, [{ region: 'EMEA' }])).token;
    const res = await create(weekly({ matchers: { region: 'AMER', location: 'Austin' }, comment: 'outside the operator scope' }));
    expect(res.status).toBe(201);
    outside = res.body;
  });

  it('lets a region-scoped operator create, read and replace a window of its region', async () => {
    const res = await create(weekly(), operator);
    expect(res.status).toBe(201);
    expect((await api('GET', `/maintenance/${res.body.id}`, { token: operator })).status).toBe(200);
    expect((await api('PUT', `/maintenance/${res.body.id}`, { token: operator, body: weekly({ comment: 'mine' }) })).status).toBe(200);
  });

  it('answers 404, never 403, for windows outside its region, and lists none of them', async () => {
    const refused = await create(weekly({ matchers: { region: 'AMER' } }), operator);
    expect(refused.status).toBe(404);
    expect(fieldsOf(refused.body as unknown as ErrorBody)).toEqual(['body.matchers']);
    expect((await create(weekly({ matchers: { vendor: 'e2e-vendor' } }), operator)).status).toBe(404);
    expect((await api('GET', `/maintenance/${outside.id}`, { token: operator })).status).toBe(404);
    expect((await api('PUT', `/maintenance/${outside.id}`, { token: operator, body: weekly() })).status).toBe(404);
    expect((await api('DELETE', `/maintenance/${outside.id}`, { token: operator })).status).toBe(404);
    const listed = await api<Page<Window>>('GET', '/maintenance?limit=1000', { token: operator });
    expect(listed.body.items.map((w) => w.id)).not.toContain(outside.id);
    expect(listed.body.items.every((w) => w.matchers.region === 'EMEA')).toBe(true);
    expect((await api<Window>('GET', `/maintenance/${outside.id}`)).body.comment).toBe('outside the operator scope');
  });
});

describe('/maintenance writes in the audit log', () => {
  const recordsOf = async (targetId: string, count: number) => {
    const until = Date.now() + 5_000;
    for (;;) {
      const res = await api<Page<AuditRecord>>('GET', `/audit?targetType=maintenance&targetId=${targetId}&limit=10`, { token: admin });
      if (res.body.items.length >= count || Date.now() > until) return res.body.items;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  it('records the create, the replace and the delete, with actor, action, target and field names', async () => {
    const { body } = await create(weekly(), admin);
    expect((await api('PUT', `/maintenance/${body.id}`, { body: weekly({ comment: 'audited' }) })).status).toBe(200);
    expect((await api('DELETE', `/maintenance/${body.id}`, { token: admin })).status).toBe(200);
    const records = await recordsOf(body.id, 3);
    expect(records.map((r) => [r.action, r.actor.kind, r.status])).toEqual([
      ['DELETE /maintenance/{id}', 'user', 200],
      ['PUT /maintenance/{id}', 'api-key', 200],
      ['POST /maintenance', 'user', 201],
    ]);
    expect(records.every((r) => r.target.type === 'maintenance' && r.target.id === body.id)).toBe(true);
    expect(records[2]!.fields).toEqual(['comment', 'matchers', 'schedule']);
  });
});
