import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import { api } from '../support/api';

// The e2e server syncs a still simulated fleet (240 devices, seed 42) and evaluates alarms only
// when asked. This file's watchers target their own devices; its silences match only its own
// watchers, so other files' mails are never suppressed.
const fleet = simulatedFleet({ seed: 42, devices: 240 });
const offline = fleet.filter((d) => !d.status.connected);
const online = fleet.filter((d) => d.status.connected);
const [ackDevice, silencedDevice, pendingDevice, historyDevice] = offline.slice(10, 14) as [typeof fleet[0], typeof fleet[0], typeof fleet[0], typeof fleet[0]];
const email = `lifecycle-${randomUUID().slice(0, 8)}@example.com`;
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

type ErrorBody = { message: string; errors?: { field: string; message: string }[] };
type Alarm = {
  id: string;
  state: string;
  watcherId: string;
  devicesn: string;
  raisedAt: string;
  pendingSince?: string;
  firesAt?: string;
  acknowledgedAt?: string;
  acknowledgedBy?: string;
  ackComment?: string;
  silencedBy: string[];
};
type Silence = { id: string; matchers: Record<string, string>; startsAt: string; endsAt: string; comment: string; createdBy: string; status: string };
type Page<T> = { items: T[]; nextCursor: string | null };
type History = { id: string; watcherId: string; devicesn: string; severity: number; raisedAt: string; clearedAt: string; reason: string; durationSeconds: number; notified: Record<string, unknown>; acknowledgedBy?: string };
const fields = (res: { body: unknown }) => ((res.body as ErrorBody).errors ?? []).map((e) => e.field);

const watcher = (devices: { devicesn: string }[], overrides: Record<string, unknown> = {}) => ({
  user: 'ops',
  dashboard: 'lifecycle-e2e',
  service: 'video',
  type: 'offline',
  allDevices: false,
  devicesId: devices.map((d) => d.devicesn),
  severity: 2,
  operations: { type: 'device', operatorType: 'AND', conditions: [{ operator: '==', value: 'false', element: 'status.connected' }] },
  description: 'lifecycle e2e',
  sendEmail: true,
  emails: [email],
  ...overrides,
});
const createWatcher = async (body: Record<string, unknown>) => {
  const res = await api<string>('POST', '/watcher', { body });
  expect(res.status).toBe(200);
  watcherIds.push(res.body);
  return res.body;
};
const evaluate = async () => {
  const res = await api<Record<string, number | boolean>>('POST', '/alarms/evaluate');
  expect(res.status).toBe(200);
  return res.body;
};
const alarmsOf = async (watcherId: string, query = '') => (await api<Alarm[]>('GET', `/alarms?watcherId=${watcherId}${query}`)).body;
const createSilence = async (body: Record<string, unknown>) => {
  const res = await api<Silence>('POST', '/silences', { body });
  expect(res.status).toBe(201);
  silenceIds.push(res.body.id);
  return res.body;
};
const signIn = async () => {
  const admin = inject('admin');
  const res = await api<{ accessToken: string }>('POST', '/api/authService/auth/signin', { body: admin });
  expect(res.status).toBe(200);
  return res.body.accessToken;
};

const watcherIds: string[] = [];
const silenceIds: string[] = [];
let ackWatcher: string;

beforeAll(async () => {
  ackWatcher = await createWatcher(watcher([ackDevice, online[0]!]));
  await evaluate();
});

afterAll(async () => {
  for (const id of silenceIds) await api('DELETE', `/silences/${id}`);
  for (const id of watcherIds) await api('DELETE', `/watcher/${id}`);
  await evaluate();
});

describe('GET /alarms states and filters', () => {
  it('lists firing alarms with state and silencedBy; ?state=pending lists pending ones only', async () => {
    const firing = await alarmsOf(ackWatcher);
    expect(firing).toEqual([expect.objectContaining({ id: `${ackWatcher}:${ackDevice.devicesn}`, state: 'firing', silencedBy: [] })]);
    expect(await alarmsOf(ackWatcher, '&state=pending')).toEqual([]);
  });

  it.each([
    ['state=cleared', 'queryStringParameters.state'],
    ['acknowledged=maybe', 'queryStringParameters.acknowledged'],
  ])('answers 422 for %s', async (query, field) => {
    const res = await api<ErrorBody>('GET', `/alarms?${query}`);
    expect(res.status).toBe(422);
    expect(fields(res)).toContain(field);
  });
});

describe('pending period', () => {
  it('a watcher with pendingSeconds opens a pending alarm (no mail, room not counted), which fires once the period passed', async () => {
    const id = await createWatcher(watcher([pendingDevice], { pendingSeconds: 1, severity: 1 }));
    const first = await evaluate();
    expect(first.pending).toBeGreaterThanOrEqual(1);
    const [pending] = await alarmsOf(id, '&state=pending');
    expect(pending).toMatchObject({ state: 'pending', pendingSince: expect.any(String), firesAt: expect.any(String) });
    expect(await alarmsOf(id)).toEqual([]);
    const { region, location, room } = pendingDevice.details;
    const others = (await api<Alarm[]>('GET', `/alarms?${new URLSearchParams({ region, location, room, severity: '1' })}`)).body;
    const status = (await api<Record<string, number>>('POST', '/videoDevice/room/roomStatusCount', { body: { regionName: region, locationName: location, roomName: room } })).body;
    expect(status.CriticalStatus).toBe(others.length > 0 ? 1 : 0);

    await new Promise((resolve) => setTimeout(resolve, 1100));
    // a run cut short by its budget on a loaded machine (complete: false) leaves it for the next one
    for (let run = 0; run < 5 && (await alarmsOf(id)).length === 0; run++) await evaluate();
    expect(await alarmsOf(id)).toEqual([expect.objectContaining({ state: 'firing', pendingSince: pending!.pendingSince })]);
    expect(status).toBeDefined();
    expect((await api<Record<string, number>>('POST', '/videoDevice/room/roomStatusCount', { body: { regionName: region, locationName: location, roomName: room } })).body.CriticalStatus).toBe(1);
  });
});

describe('POST|DELETE /alarms/{id}/ack', () => {
  const id = () => `${ackWatcher}:${ackDevice.devicesn}`;

  it('acknowledges with a comment as "api-key" without a bearer token, and filters by it', async () => {
    const res = await api<Alarm>('POST', `/alarms/${id()}/ack`, { body: { comment: 'looking into it' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: id(), state: 'firing', acknowledgedBy: 'api-key', ackComment: 'looking into it', acknowledgedAt: expect.any(String) });
    expect(await alarmsOf(ackWatcher, '&acknowledged=true')).toEqual([expect.objectContaining({ id: id(), acknowledgedBy: 'api-key' })]);
    expect(await alarmsOf(ackWatcher, '&acknowledged=false')).toEqual([]);
  });

  it('names the user of a valid bearer token, and "api-key" for an invalid one; no body is fine', async () => {
    const token = await signIn();
    const named = await api<Alarm>('POST', `/alarms/${id()}/ack`, { token });
    expect(named.status).toBe(200);
    expect(named.body.acknowledgedBy).toBe(inject('admin').username);
    expect(named.body).not.toHaveProperty('ackComment');
    const forged = await api<Alarm>('POST', `/alarms/${id()}/ack`, { token: 'not-a-token' });
    expect(forged.status).toBe(200);
    expect(forged.body.acknowledgedBy).toBe('api-key');
  });

  it('DELETE removes the acknowledgement', async () => {
    const res = await api<Alarm>('DELETE', `/alarms/${id()}/ack`);
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('acknowledgedAt');
    expect(await alarmsOf(ackWatcher, '&acknowledged=false')).toHaveLength(1);
  });

  it('answers 404 for an unknown alarm, 422 for a comment over 2048 characters or an unknown field', async () => {
    expect((await api('POST', `/alarms/${ackWatcher}:NOPE-${randomUUID()}/ack`)).status).toBe(404);
    expect((await api('DELETE', `/alarms/${randomUUID()}:X/ack`)).status).toBe(404);
    expect((await api('POST', '/alarms/no-colon/ack')).status).toBe(404);
    const long = await api<ErrorBody>('POST', `/alarms/${id()}/ack`, { body: { comment: 'x'.repeat(2049) } });
    expect(long.status).toBe(422);
    expect(fields(long)).toEqual(['body.comment']);
    const extra = await api<ErrorBody>('POST', `/alarms/${id()}/ack`, { body: { by: 'me' } });
    expect(extra.status).toBe(422);
  });

  it('answers 409 for an alarm that is no longer open', async () => {
    const id = await createWatcher(watcher([historyDevice]));
    await evaluate();
    await api('PUT', `/watcher/${id}/status`, { body: { active: false } });
    await evaluate();
    expect((await api('POST', `/alarms/${id}:${historyDevice.devicesn}/ack`)).status).toBe(409);
    expect((await api('DELETE', `/alarms/${id}:${historyDevice.devicesn}/ack`)).status).toBe(409);
  });
});

describe('silences', () => {
  it('POST /silences answers 201 with id, createdBy and status; startsAt defaults to now', async () => {
    const endsAt = iso(Date.now() + HOUR);
    const silence = await createSilence({ matchers: { watcherId: randomUUID() }, endsAt, comment: 'maintenance' });
    expect(silence).toMatchObject({ id: expect.any(String), createdBy: 'api-key', status: 'active', endsAt, comment: 'maintenance' });
    expect(Date.parse(silence.startsAt)).toBeLessThanOrEqual(Date.now());
    expect((await api<Silence>('GET', `/silences/${silence.id}`)).body).toEqual(silence);
  });

  it.each([
    ['no matcher', { matchers: {}, endsAt: iso(Date.now() + HOUR), comment: 'c' }, 'body.matchers'],
    ['an unknown matcher', { matchers: { colour: 'red' }, endsAt: iso(Date.now() + HOUR), comment: 'c' }, 'body.matchers.colour'],
    ['endsAt before startsAt', { matchers: { room: 'A' }, startsAt: iso(Date.now() + 2 * HOUR), endsAt: iso(Date.now() + HOUR), comment: 'c' }, 'body.endsAt'],
    ['a window over 90 days', { matchers: { room: 'A' }, endsAt: iso(Date.now() + 91 * 24 * HOUR), comment: 'c' }, 'body.endsAt'],
    ['a date that is not ISO 8601', { matchers: { room: 'A' }, endsAt: 'tomorrow', comment: 'c' }, 'body.endsAt'],
    ['no comment', { matchers: { room: 'A' }, endsAt: iso(Date.now() + HOUR) }, 'body.comment'],
    ['no endsAt', { matchers: { room: 'A' }, comment: 'c' }, 'body.endsAt'],
  ])('answers 400 naming the field for %s', async (_, body, field) => {
    const res = await api<ErrorBody>('POST', '/silences', { body });
    expect(res.status).toBe(400);
    expect(fields(res)).toContain(field);
  });

  it('GET /silences lists active and future silences; DELETE ends one now, kept as expired (?all=true)', async () => {
    const future = await createSilence({ matchers: { watcherId: randomUUID() }, startsAt: iso(Date.now() + HOUR), endsAt: iso(Date.now() + 2 * HOUR), comment: 'later' });
    expect(future.status).toBe('pending');
    expect((await api<Silence[]>('GET', '/silences')).body.map((s) => s.id)).toContain(future.id);
    const ended = await api<Silence>('DELETE', `/silences/${future.id}`);
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ id: future.id, status: 'expired' });
    expect((await api<Silence[]>('GET', '/silences')).body.map((s) => s.id)).not.toContain(future.id);
    // ?all=true answers a page at a time (issue 24 item 14): follow the cursors
    const kept: string[] = [];
    for (let cursor: string | null = ''; cursor !== null; ) {
      const page: { body: { items: Silence[]; nextCursor: string | null } } = await api('GET', `/silences?all=true&limit=50${cursor ? `&cursor=${cursor}` : ''}`);
      kept.push(...page.body.items.map((s) => s.id));
      cursor = page.body.nextCursor;
    }
    expect(kept).toContain(future.id);
    expect((await api<Silence>('GET', `/silences/${future.id}`)).body.status).toBe('expired');
  });

  it('answers 404 for an unknown silence id and 400 for a malformed one', async () => {
    expect((await api('GET', `/silences/${randomUUID()}`)).status).toBe(404);
    expect((await api('DELETE', `/silences/${randomUUID()}`)).status).toBe(404);
    expect((await api('GET', '/silences/not-an-id!')).status).toBe(400);
    expect((await api('GET', '/silences?all=maybe')).status).toBe(400);
  });

  it('a matching silence lists on the alarm, suppresses its raise and clear mails, and leaves room status alone', async () => {
    const id = await createWatcher(watcher([silencedDevice], { severity: 1 }));
    const silence = await createSilence({ matchers: { watcherId: id }, endsAt: iso(Date.now() + HOUR), comment: 'planned work' });
    await evaluate();
    expect(await alarmsOf(id)).toEqual([expect.objectContaining({ silencedBy: [silence.id] })]);
    const { region, location, room } = silencedDevice.details;
    expect((await api<Record<string, number>>('POST', '/videoDevice/room/roomStatusCount', { body: { regionName: region, locationName: location, roomName: room } })).body.CriticalStatus).toBe(1);
    await api('PUT', `/watcher/${id}/status`, { body: { active: false } });
    await evaluate();
    const mails = (await api<{ id: string }[]>('GET', `/alarms/outbox?to=${encodeURIComponent(email)}`)).body;
    expect(mails.filter((m) => m.id.startsWith(`${id}:`))).toEqual([]);
    const history = (await api<Page<History>>('GET', `/alarms/history?watcherId=${id}`)).body;
    expect(history.items).toEqual([expect.objectContaining({ notified: { raised: 'suppressed', cleared: 'suppressed' } })]);
  });
});

describe('GET /alarms/history', () => {
  let id: string;
  beforeAll(async () => {
    id = await createWatcher(watcher(offline.slice(20, 23), { severity: 3 }));
    await evaluate();
    await api('POST', `/alarms/${id}:${offline[20]!.devicesn}/ack`, { body: { comment: 'seen' } });
    await api('PUT', `/watcher/${id}/status`, { body: { active: false } });
    await evaluate();
  });

  it('answers cleared alarms newest first with duration, reason, acknowledgement and deliveries', async () => {
    const res = await api<Page<History>>('GET', `/alarms/history?watcherId=${id}`);
    expect(res.status).toBe(200);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.items.map((r) => r.devicesn).sort()).toEqual(offline.slice(20, 23).map((d) => d.devicesn).sort());
    expect(res.body.items.every((r) => r.reason === 'watcher inactive' && r.severity === 3 && r.durationSeconds >= 0)).toBe(true);
    expect(res.body.items.every((r) => JSON.stringify(r.notified) === JSON.stringify({ raised: [email], cleared: [email] }))).toBe(true);
    expect(res.body.items.find((r) => r.devicesn === offline[20]!.devicesn)).toMatchObject({ acknowledgedBy: 'api-key', ackComment: 'seen' });
    const cleared = res.body.items.map((r) => r.clearedAt);
    expect(cleared).toEqual([...cleared].sort().reverse());
  });

  it('narrows by device, by room, by region and by time, and pages with limit and cursor', async () => {
    const device = offline[21]!;
    const { region, location, room } = device.details;
    const byDevice = (await api<Page<History>>('GET', `/alarms/history?devicesn=${device.devicesn}&watcherId=${id}`)).body.items;
    expect(byDevice.map((r) => r.devicesn)).toEqual([device.devicesn]);
    const byRoom = (await api<Page<History>>('GET', `/alarms/history?${new URLSearchParams({ region, location, room, watcherId: id })}`)).body.items;
    expect(byRoom.map((r) => r.devicesn)).toContain(device.devicesn);
    const byRegion = (await api<Page<History>>('GET', `/alarms/history?region=${encodeURIComponent(region)}&limit=1000`)).body.items;
    expect(byRegion.filter((r) => r.watcherId === id).every((r) => offline.find((d) => d.devicesn === r.devicesn)!.details.region === region)).toBe(true);
    const future = (await api<Page<History>>('GET', `/alarms/history?watcherId=${id}&from=${iso(Date.now() + HOUR)}&to=${iso(Date.now() + 2 * HOUR)}`)).body.items;
    expect(future).toEqual([]);
    const first = (await api<Page<History>>('GET', `/alarms/history?watcherId=${id}&limit=2`)).body;
    expect(first.items).toHaveLength(2);
    const rest = (await api<Page<History>>('GET', `/alarms/history?watcherId=${id}&limit=2&cursor=${first.nextCursor}`)).body;
    expect([...first.items, ...rest.items].map((r) => r.devicesn).sort()).toEqual(offline.slice(20, 23).map((d) => d.devicesn).sort());
  });

  it.each([
    ['room=Room%201', 'queryStringParameters.room'],
    ['region=EMEA&location=London&room=', 'queryStringParameters.room'],
    ['location=London', 'queryStringParameters.location'],
    [`from=${iso(Date.now())}&to=${iso(Date.now() - HOUR)}`, 'queryStringParameters.from'],
    ['from=yesterday', 'queryStringParameters.from'],
    ['limit=1001', 'queryStringParameters.limit'],
    ['cursor=bad', 'queryStringParameters.cursor'],
    ['colour=red', 'queryStringParameters.colour'],
  ])('answers 422 for %s', async (query, field) => {
    const res = await api<ErrorBody>('GET', `/alarms/history?${query}`);
    expect(res.status).toBe(422);
    expect(fields(res)).toContain(field);
  });
});

describe('GET /videoDevice/{devicesn}/history', () => {
  it('answers the device transitions newest first (its first observation at least)', async () => {
    const device = offline[0]!;
    const res = await api<Page<{ at: string; connected: boolean; inCallStatus: string }>>('GET', `/videoDevice/${device.devicesn}/history`);
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThanOrEqual(1);
    expect(res.body.items.at(-1)).toEqual({ at: expect.any(String), connected: false, inCallStatus: 'NONE' });
    expect((await api<Page<unknown>>('GET', `/videoDevice/${device.devicesn}/history?to=2000-01-01T00:00:00Z`)).body).toEqual({ items: [], nextCursor: null });
  });

  it('answers 404 for an unknown device and 422 for a bad window or limit', async () => {
    expect((await api('GET', `/videoDevice/NOPE-${randomUUID()}/history`)).status).toBe(404);
    const bad = await api<ErrorBody>('GET', `/videoDevice/${offline[0]!.devicesn}/history?limit=0&from=soon`);
    expect(bad.status).toBe(422);
    expect(fields(bad)).toEqual(expect.arrayContaining(['queryStringParameters.limit', 'queryStringParameters.from']));
  });
});

describe('POST /videoDevice/room/availability', () => {
  const ALL = { regionName: 'all', locationName: 'all', roomName: 'all' };
  type Answer = { from: string; to: string; rooms: { region: string; location: string; room: string; availability: number; deviceCount: number }[]; overall: number };

  it('answers every room with devices, worst first, and an overall ratio below 1 (some devices are offline)', async () => {
    const res = await api<Answer>('POST', '/videoDevice/room/availability', { body: ALL });
    expect(res.status).toBe(200);
    expect(Date.parse(res.body.to) - Date.parse(res.body.from)).toBe(24 * HOUR);
    const total = (await api<number[]>('POST', '/videoDevice/all/totalDevices', { body: ALL })).body[0];
    expect(res.body.rooms.reduce((sum, r) => sum + r.deviceCount, 0)).toBe(total);
    const values = res.body.rooms.map((r) => r.availability);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(values.every((v) => v >= 0 && v <= 1 && Number(v.toFixed(4)) === v)).toBe(true);
    expect(res.body.overall).toBeLessThan(1);
    expect(res.body.overall).toBeGreaterThan(0.5);
    const down = offline[0]!.details;
    expect(res.body.rooms.find((r) => r.region === down.region && r.location === down.location && r.room === down.room)!.availability).toBeLessThan(1);
  });

  it('narrows by the device filter and takes a window', async () => {
    const { region } = offline[0]!.details;
    const res = await api<Answer>('POST', '/videoDevice/room/availability', {
      body: { regionName: region, locationName: 'all', roomName: 'all', from: iso(Date.now() - 2 * HOUR), to: iso(Date.now() - HOUR) },
    });
    expect(res.status).toBe(200);
    expect(res.body.rooms.every((r) => r.region === region)).toBe(true);
  });

  it.each([
    ['a missing filter field', { regionName: 'all', locationName: 'all' }, 'body.roomName'],
    ['a window over 31 days', { ...ALL, from: iso(Date.now() - 32 * 24 * HOUR) }, 'body.from'],
    ['from after to', { ...ALL, from: iso(Date.now() - HOUR), to: iso(Date.now() - 2 * HOUR) }, 'body.from'],
    ['a date that is not ISO 8601', { ...ALL, to: 'now' }, 'body.to'],
  ])('answers 422 for %s', async (_, body, field) => {
    const res = await api<ErrorBody>('POST', '/videoDevice/room/availability', { body });
    expect(res.status).toBe(422);
    expect(fields(res)).toContain(field);
  });
});
