import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import { api } from '../support/api';
import { watcherInput } from '../support/fleet';
import { adminToken as signInAdmin, createRole, userWith } from '../support/principals';

// Hostile review of issue 28 over HTTP (probe28): what the branches' own e2e files did not send.
const fleet = simulatedFleet({ seed: 42, devices: 240 });
const offline = fleet.filter((d) => !d.status.connected);
const inEmea = offline.filter((d) => d.details.region === 'EMEA').at(0)!;
const outside = offline.find((d) => d.details.region !== 'EMEA')!;
const tag = randomUUID().slice(0, 8);
type ErrorBody = { message: string; errors?: { field: string; message: string }[] };
type Alarm = { id: string; devicesn: string; ackUntil?: string; ackEvents?: { action: string; ackUntil?: string }[] };

const watcherBody = (extra: Record<string, unknown> = {}) => ({
  ...watcherInput({ dashboard: `probe-${tag}`, allDevices: false, devicesId: [inEmea.devicesn, outside.devicesn], severity: 3 }),
  ...extra,
});
const fieldsOf = (res: { body: unknown }) => ((res.body as ErrorBody).errors ?? []).map((e) => e.field);
const HOUR = 3_600_000;

let admin: string;
let operator: string;
let watcherId: string;
const channels: string[] = [];
const cleanup: string[] = [];

beforeAll(async () => {
  admin = await signInAdmin();
  const role = await createRole(admin, ['fleet:read', 'alarms:ack', 'silences:write', 'watchers:write']);
  operator = (await userWith(admin, role, [{ region: 'EMEA' }])).token;
  const res = await api<string>('POST', '/watcher', { body: watcherBody() });
  expect(res.status).toBe(200);
  watcherId = res.body;
  expect((await api('POST', '/alarms/evaluate')).status).toBe(200);
});

afterAll(async () => {
  for (const path of cleanup) await api('DELETE', path);
  await api('DELETE', `/watcher/${watcherId}`);
  for (const id of channels) await api('DELETE', `/channels/${id}`);
  await api('POST', '/alarms/evaluate');
});

describe('inhibitedBy with hostile values', () => {
  it('answers 400 naming the field for a percent of 0, 101 or 1.5, and an unknown parent watcher', async () => {
    for (const inhibitedBy of [
      { condition: 'locationOffline', percent: 0 },
      { condition: 'locationOffline', percent: 101 },
      { condition: 'locationOffline', percent: 1.5 },
      { condition: 'locationOffline' },
      { condition: 'watcher', watcherId: randomUUID(), over: 'room' },
      { condition: 'watcher', watcherId: 'x'.repeat(5000), over: 'room' },
      { condition: 'watcher', watcherId: '\ud800', over: 'room' },
      { condition: 'roomOffline', extra: 1 },
    ]) {
      const res = await api<ErrorBody>('POST', '/watcher', { body: watcherBody({ inhibitedBy }) });
      expect(res.status, JSON.stringify(inhibitedBy)).toBe(400);
      expect(fieldsOf(res).some((f) => f.startsWith('body.inhibitedBy')), JSON.stringify(res.body)).toBe(true);
    }
  });
});

describe('ackUntil with hostile values', () => {
  it('answers 422 for the past, more than 30 days ahead, a leap second and a year 10000 date; 200 for one just inside', async () => {
    const id = `${watcherId}:${inEmea.devicesn}`;
    for (const ackUntil of [new Date(Date.now() - 1000).toISOString(), new Date(Date.now() + 31 * 24 * HOUR).toISOString(), '2026-12-31T23:59:60Z', '+010000-01-01T00:00:00Z', '9999-12-31T23:59:59Z', 'soon']) {
      const res = await api<ErrorBody>('POST', `/alarms/${id}/ack`, { body: { ackUntil } });
      expect([400, 422], `${ackUntil}: ${JSON.stringify(res.body)}`).toContain(res.status);
    }
    const ok = await api<Alarm>('POST', `/alarms/${id}/ack`, { body: { ackUntil: new Date(Date.now() + 29 * 24 * HOUR).toISOString() } });
    expect(ok.status).toBe(200);
    expect((await api('DELETE', `/alarms/${id}/ack`)).status).toBe(200);
  });

  it('two acknowledgements racing with different ackUntil: both answer 200, one stands, both are in the history', async () => {
    const id = `${watcherId}:${inEmea.devicesn}`;
    const untils = [2, 3].map((h) => new Date(Date.now() + h * HOUR).toISOString());
    const answers = await Promise.all(untils.map((ackUntil) => api<Alarm>('POST', `/alarms/${id}/ack`, { body: { ackUntil } })));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const [alarm] = (await api<Alarm[]>('GET', `/alarms?watcherId=${watcherId}`)).body.filter((a) => a.id === id);
    expect(untils.map((u) => new Date(u).toISOString())).toContain(alarm!.ackUntil);
    const history = await api<{ items: { ackEvents?: unknown[] }[] } | unknown>('GET', `/alarms/${encodeURIComponent(id)}`);
    expect(history.status).toBeLessThan(500);
    expect((await api('DELETE', `/alarms/${id}/ack`)).status).toBe(200);
  });
});

describe('reports: hostile channels and racing runs', () => {
  it('runs now in parallel without a 5xx, one run and the others 429; a deleted channel fails its delivery, not the run', async () => {
    const made = await Promise.all(
      ['a', 'b'].map((n) => api<{ id: string }>('POST', '/channels', { body: { name: `probe-${n}-${tag}`, type: 'email', emails: [`probe-${n}-${tag}@example.com`] } })),
    );
    const [keep, gone] = made.map((m) => m.body.id);
    channels.push(keep!);
    const schedule = await api<{ id: string }>('POST', '/reports', { body: { name: `probe ${tag}`, period: 'daily', time: '08:00', timeZone: 'Europe/Berlin', channelIds: [keep, gone] } });
    expect(schedule.status).toBe(201);
    cleanup.push(`/reports/${schedule.body.id}`);
    expect((await api('DELETE', `/channels/${gone}`)).status).toBe(200);
    // one run a minute per report (docs/guide/rules/reports.md "Report runs are budgeted, and a schedule names only channels shared with its writer"): of three racing, one runs and two are 429
    const runs = await Promise.all([1, 2, 3].map(() => api<{ deliveries: { channelId: string; deliveryId: string }[] }>('POST', `/reports/${schedule.body.id}/run`)));
    expect(runs.map((r) => r.status).sort()).toEqual([200, 429, 429]);
    const ran = runs.find((r) => r.status === 200)!;
    // the deleted channel answers as the live one does; only the delivery log tells how each went
    expect(ran.body.deliveries.map((d) => d.channelId)).toEqual([keep, gone]);
    const log = await api<{ items: { deliveryId: string; status: string }[] }>('GET', `/channels/${keep}/deliveries`);
    expect(log.body.items.find((d) => d.deliveryId === ran.body.deliveries[0]!.deliveryId)?.status).toBe('delivered');
    // the schedule still names the deleted channel: a replace must name channels that exist
    const replaced = await api<ErrorBody>('PUT', `/reports/${schedule.body.id}`, { body: { name: 'x', period: 'daily', time: '08:00', timeZone: 'UTC', channelIds: [keep, gone] } });
    expect(replaced.status).toBe(422);
  });

  it('refuses a scoped operator a report wider than its scope, and another region\'s schedule is 404 to it (run included)', async () => {
    const channel = await api<{ id: string }>('POST', '/channels', { body: { name: `probe-scope-${tag}`, type: 'email', emails: [`probe-scope-${tag}@example.com`] } });
    channels.push(channel.body.id);
    const body = (scope?: unknown) => ({ name: 'scoped', period: 'daily', time: '08:00', timeZone: 'UTC', channelIds: [channel.body.id], ...(scope === undefined ? {} : { scope }) });
    for (const scope of [[], [{ region: 'AMER' }], [{ region: 'EMEA' }, { region: 'AMER' }]]) {
      const res = await api('POST', '/reports', { token: operator, body: body(scope) });
      expect(res.status, JSON.stringify(scope)).toBe(404);
    }
    // the operator lacks channels:write: it may name the channel once a schedule within its scope does (docs/guide/rules/reports.md "Report runs are budgeted, and a schedule names only channels shared with its writer")
    expect((await api('POST', '/reports', { token: operator, body: body() })).status).toBe(422);
    const shared = await api<{ id: string }>('POST', '/reports', { body: body([{ region: 'EMEA' }]) });
    cleanup.push(`/reports/${shared.body.id}`);
    const mine = await api<{ id: string; scope: unknown }>('POST', '/reports', { token: operator, body: body() });
    expect(mine.status).toBe(201);
    expect(mine.body.scope).toEqual([{ region: 'EMEA' }]);
    cleanup.push(`/reports/${mine.body.id}`);
    const theirs = await api<{ id: string }>('POST', '/reports', { body: body([{ region: 'AMER' }]) });
    cleanup.push(`/reports/${theirs.body.id}`);
    for (const [method, path] of [['GET', `/reports/${theirs.body.id}`], ['POST', `/reports/${theirs.body.id}/run`], ['DELETE', `/reports/${theirs.body.id}`]]) {
      expect((await api(method!, path!, { token: operator })).status, `${method} ${path}`).toBe(404);
    }
    expect((await api('PUT', `/reports/${theirs.body.id}`, { token: operator, body: body([{ region: 'EMEA' }]) })).status).toBe(404);
  });
});

describe('maintenance and location profiles across scopes', () => {
  it("a region-scoped operator gets 404 for another region's window, its history, and another region's profile", async () => {
    const window = await api<{ id: string }>('POST', '/maintenance', {
      body: { matchers: { region: 'AMER' }, schedule: { days: ['TU'], start: '22:00', durationMinutes: 60, timeZone: 'America/New_York' }, comment: `probe ${tag}` },
    });
    expect(window.status).toBe(201);
    cleanup.push(`/maintenance/${window.body.id}`);
    for (const path of [`/maintenance/${window.body.id}`, `/maintenance/${window.body.id}/history`, `/maintenance/${window.body.id}/history?limit=1`]) {
      expect((await api('GET', path, { token: operator })).status, path).toBe(404);
    }
    const profile = `/locations/AMER/${encodeURIComponent(`Probe ${tag}`)}/profile`;
    expect((await api('PUT', profile, { body: { timeZone: 'America/New_York' } })).status).toBe(200);
    cleanup.push(profile);
    expect((await api('GET', profile, { token: operator })).status).toBe(404);
    const listed = await api<{ items: { region: string }[] }>('GET', '/locations/profiles?limit=1000', { token: operator });
    expect(listed.body.items.filter((p) => p.region !== 'EMEA')).toEqual([]);
    // the write needs config:write, which the operator lacks
    expect((await api('PUT', profile, { token: operator, body: { timeZone: 'UTC' } })).status).toBe(403);
  });

  it('records a location profile write with its region and location as the target', async () => {
    const location = `Probe audit ${tag}`;
    const path = `/locations/EMEA/${encodeURIComponent(location)}/profile`;
    expect((await api('PUT', path, { body: { timeZone: 'Europe/London' } })).status).toBe(200);
    cleanup.push(path);
    const id = `EMEA/${encodeURIComponent(location)}`;
    const audit = await api<{ items: { actor: { id: string }; target: { type: string; id: string }; action: string }[] }>('GET', `/audit?targetType=location&targetId=${encodeURIComponent(id)}&limit=10`, { token: admin });
    expect(audit.status).toBe(200);
    expect(audit.body.items[0]).toMatchObject({ actor: { id: 'api-key' }, target: { type: 'location', id }, action: 'PUT /locations/{region}/{location}/profile' });
  });
});

describe('two PUTs racing to make two watchers parents of each other', () => {
  it('answers each 200 or 400 (never a 5xx), and the evaluator runs (no loop)', async () => {
    const make = async (type: string) => (await api<string>('POST', '/watcher', { body: watcherBody({ type, dashboard: `probe-cycle-${tag}` }) })).body;
    const [a, b] = [await make('a'), await make('b')];
    try {
      const answers = await Promise.all([
        api('PUT', `/watcher/${a}`, { body: watcherBody({ type: 'a', dashboard: `probe-cycle-${tag}`, inhibitedBy: { condition: 'watcher', watcherId: b, over: 'location' } }) }),
        api('PUT', `/watcher/${b}`, { body: watcherBody({ type: 'b', dashboard: `probe-cycle-${tag}`, inhibitedBy: { condition: 'watcher', watcherId: a, over: 'location' } }) }),
      ]);
      for (const res of answers) expect([200, 400, 409]).toContain(res.status);
      expect((await api('POST', '/alarms/evaluate')).status).toBe(200);
      expect((await api('POST', '/alarms/evaluate')).status).toBe(200);
    } finally {
      for (const id of [a, b]) await api('DELETE', `/watcher/${id}`);
    }
  });
});

describe('two DELETEs of one maintenance window racing', () => {
  it('answers one 200 and the other 404 or 409, never a 5xx', async () => {
    const window = await api<{ id: string }>('POST', '/maintenance', {
      body: { matchers: { region: 'EMEA', location: `Probe race ${tag}` }, schedule: { days: ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'], start: '00:00', durationMinutes: 1439, timeZone: 'UTC' }, comment: 'race' },
    });
    expect(window.status).toBe(201);
    const answers = await Promise.all([api('DELETE', `/maintenance/${window.body.id}`), api('DELETE', `/maintenance/${window.body.id}`)]);
    expect(answers.map((a) => a.status).sort()).toEqual(expect.arrayContaining([200]));
    for (const res of answers) expect([200, 404, 409]).toContain(res.status);
  });
});
