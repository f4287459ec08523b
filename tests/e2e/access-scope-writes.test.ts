import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import { api } from '../support/api';
import { watcherInput } from '../support/fleet';
import { signIn } from '../support/principals';

// An operator scoped to one region (DESIGN §5, issue 26 item 3) writes only inside it: it
// acknowledges, silences and watches there, and every write reaching outside is 404, never 403.
// Key mode: the API key rides along, the bearer token narrows each call to the operator. The e2e
// server syncs a still simulated fleet (240 devices, seed 42); this file's watchers mail nobody and
// its silences match only its own watchers, so other files see nothing of it once it cleaned up.
const fleet = simulatedFleet({ seed: 42, devices: 240 });
const offline = fleet.filter((d) => !d.status.connected);
const REGION = 'EMEA';
const inRegion = offline.filter((d) => d.details.region === REGION).at(-1)!;
const outside = offline.filter((d) => d.details.region !== REGION).at(-1)!;
const PASSWORD = 'e2e-scoped-operator-password-1';
const HOUR = 3_600_000;

type ErrorBody = { message: string; errors?: { field: string; message: string }[] };
type Alarm = { id: string; watcherId: string; devicesn: string; region: string; acknowledgedBy?: string };
type Silence = { id: string; matchers: Record<string, string> };
type Watcher = { id: string; scope?: { region: string; location?: string }[] };

const watcherBody = (overrides: Record<string, unknown> = {}) => ({
  ...watcherInput({ dashboard: 'scope-e2e', allDevices: false, devicesId: [inRegion.devicesn, outside.devicesn], severity: 3 }),
  ...overrides,
});
const silenceBody = (matchers: Record<string, string>) => ({ matchers, endsAt: new Date(Date.now() + HOUR).toISOString(), comment: 'scope e2e' });

const watcherIds: string[] = [];
const silenceIds: string[] = [];
const operator = `scoped-${randomUUID().slice(0, 8)}`;
const roleName = `scope-e2e-${randomUUID().slice(0, 8)}`;
let adminToken: string;
let token: string;
let keyWatcher: string;

const evaluate = async () => expect((await api('POST', '/alarms/evaluate')).status).toBe(200);
const alarmsOf = async (watcherId: string) => (await api<Alarm[]>('GET', `/alarms?watcherId=${watcherId}`)).body;

beforeAll(async () => {
  const admin = inject('admin');
  adminToken = await signIn(admin.username, admin.password);
  // the operator's permissions (BUILT_IN_PERMISSIONS.operator) in a role of this file's own
  const role = await api<{ roleid: string }>('POST', '/api/authService/role', {
    token: adminToken,
    body: { name: roleName, description: 'scope e2e operator', permissions: ['fleet:read', 'alarms:ack', 'silences:write', 'watchers:write'] },
  });
  expect(role.status).toBe(201);
  const created = await api<{ username: string; scope?: unknown }>('POST', '/api/authService/auth', {
    token: adminToken,
    body: { username: operator, password: PASSWORD, email: `${operator}@example.com`, name: 'Scoped Operator', role: role.body.roleid, scope: [{ region: REGION }] },
  });
  expect(created.status).toBe(201);
  expect(created.body.scope).toEqual([{ region: REGION }]);
  token = await signIn(operator, PASSWORD);
  // an unscoped watcher (the API key alone) over one offline device inside the region and one outside
  const res = await api<string>('POST', '/watcher', { body: watcherBody() });
  expect(res.status).toBe(200);
  keyWatcher = res.body;
  watcherIds.push(keyWatcher);
  await evaluate();
});

afterAll(async () => {
  for (const id of silenceIds) await api('DELETE', `/silences/${id}`);
  for (const id of watcherIds) await api('DELETE', `/watcher/${id}`);
  await evaluate();
  await api('DELETE', `/api/authService/auth/${operator}`, { token: adminToken });
  await api('DELETE', `/api/authService/role/${roleName}`, { token: adminToken });
});

describe('a region-scoped operator acknowledging', () => {
  it('acknowledges an alarm in its region (200) and gets 404 for one outside, which stays unacknowledged', async () => {
    const inId = `${keyWatcher}:${inRegion.devicesn}`;
    const outId = `${keyWatcher}:${outside.devicesn}`;
    expect((await alarmsOf(keyWatcher)).map((a) => a.id).sort()).toEqual([inId, outId].sort());

    const acked = await api<Alarm>('POST', `/alarms/${inId}/ack`, { token, body: { comment: 'mine' } });
    expect(acked).toMatchObject({ status: 200, body: { id: inId, acknowledgedBy: operator } });

    const refused = await api<ErrorBody>('POST', `/alarms/${outId}/ack`, { token });
    expect(refused).toMatchObject({ status: 404, body: { message: `Alarm ${outId} not found` } });
    expect((await api<ErrorBody>('DELETE', `/alarms/${outId}/ack`, { token })).status).toBe(404);
    expect((await alarmsOf(keyWatcher)).find((a) => a.id === outId)?.acknowledgedBy).toBeUndefined();

    expect((await api<Alarm>('DELETE', `/alarms/${inId}/ack`, { token })).status).toBe(200);
  });
});

describe('a region-scoped operator silencing', () => {
  it('silences within its region (201) and gets 404 for a silence outside or pinning no region', async () => {
    const created = await api<Silence>('POST', '/silences', { token, body: silenceBody({ region: REGION, watcherId: keyWatcher }) });
    expect(created.status).toBe(201);
    silenceIds.push(created.body.id);

    const refused: Record<string, string>[] = [{ region: outside.details.region, watcherId: keyWatcher }, { watcherId: keyWatcher }, { devicesn: inRegion.devicesn }];
    for (const matchers of refused) {
      const res = await api<ErrorBody>('POST', '/silences', { token, body: silenceBody(matchers) });
      expect(res.status).toBe(404);
      expect(res.body.message).not.toContain(outside.details.region);
    }
  });

  it('sees and ends only silences within its region', async () => {
    const mine = await api<Silence>('POST', '/silences', { token, body: silenceBody({ region: REGION, location: inRegion.details.location, watcherId: keyWatcher }) });
    const theirs = await api<Silence>('POST', '/silences', { body: silenceBody({ region: outside.details.region, watcherId: keyWatcher }) });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    silenceIds.push(mine.body.id, theirs.body.id);

    const listed = (await api<Silence[]>('GET', '/silences', { token })).body.map((s) => s.id);
    expect(listed).toContain(mine.body.id);
    expect(listed).not.toContain(theirs.body.id);
    expect((await api('GET', `/silences/${theirs.body.id}`, { token })).status).toBe(404);
    expect((await api('DELETE', `/silences/${theirs.body.id}`, { token })).status).toBe(404);
    expect((await api<{ status: string }>('GET', `/silences/${theirs.body.id}`)).body.status).toBe('active');
    expect((await api<{ status: string }>('DELETE', `/silences/${mine.body.id}`, { token })).body.status).toBe('expired');
  });
});

describe('a region-scoped operator watching', () => {
  it('creates a watcher of all devices that raises only for the devices in its region', async () => {
    // every offline device of a room name found in every region: only the scope narrows it
    const room = 'Room 5';
    const expected = offline.filter((d) => d.details.room === room && d.details.region === REGION).map((d) => d.devicesn).sort();
    expect(offline.some((d) => d.details.room === room && d.details.region !== REGION)).toBe(true);
    const conditions = [
      { operator: '==', value: 'false', element: 'status.connected' },
      { operator: '==', value: room, element: 'details.room' },
    ];
    const res = await api<string>('POST', '/watcher', { token, body: watcherBody({ allDevices: true, devicesId: [], operations: { type: 'device', operatorType: 'AND', conditions } }) });
    expect(res.status).toBe(200);
    watcherIds.push(res.body);
    expect((await api<Watcher>('GET', `/watcher/${res.body}`, { token })).body.scope).toEqual([{ region: REGION }]);

    await evaluate();

    const raised = await alarmsOf(res.body);
    expect(raised.map((a) => a.devicesn).sort()).toEqual(expected);
    expect(raised.every((a) => a.region === REGION)).toBe(true);
  });

  it('gets 404 for conditions naming a region outside, naming the condition only', async () => {
    const conditions = [{ operator: '==', value: outside.details.region, element: 'details.region' }];
    const res = await api<ErrorBody>('POST', '/watcher', { token, body: watcherBody({ operations: { type: 'device', operatorType: 'AND', conditions } }) });
    expect(res.status).toBe(404);
    expect(res.body.errors?.map((e) => e.field)).toEqual(['body.operations.conditions[0]']);
    expect(JSON.stringify(res.body)).not.toContain(outside.details.region);
  });

  it('reaches only its own region\'s watchers: the unscoped one is 404 to get, change or delete, and absent from its list', async () => {
    expect((await api('GET', `/watcher/${keyWatcher}`, { token })).status).toBe(404);
    expect((await api('PUT', `/watcher/${keyWatcher}`, { token, body: watcherBody() })).status).toBe(404);
    expect((await api('PUT', `/watcher/${keyWatcher}/status`, { token, body: { active: false } })).status).toBe(404);
    expect((await api('DELETE', `/watcher/${keyWatcher}`, { token })).status).toBe(404);
    expect((await api<Watcher>('GET', `/watcher/${keyWatcher}`)).status).toBe(200);

    const listed = (await api<Watcher[]>('GET', '/watcher/all', { token })).body;
    expect(listed.map((w) => w.id)).not.toContain(keyWatcher);
    expect(listed.map((w) => w.id)).toContain(watcherIds[1]);
    expect(listed.every((w) => w.scope?.every((entry) => entry.region === REGION))).toBe(true);
  });
});
