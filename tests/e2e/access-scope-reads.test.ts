import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import { api } from '../support/api';
import { openSocket, type LiveClient } from '../support/socket';

/*
 * Reads of a region-scoped viewer over HTTP (issue 26 item 3, DESIGN §5, ADR 0201 and docs/guide/rules/access.md and docs/guide/rules/live.md), in
 * ACCESS_MODE=key: a bearer token narrows to its principal. The shared e2e server syncs a still
 * simulated fleet (seed 42, 240 devices in four regions); the viewer is scoped to EMEA, and every
 * answer is compared with the API key's (unscoped) answer for a body naming EMEA.
 */
const fleet = simulatedFleet({ seed: 42, devices: 240 });
const REGION = 'EMEA';
const OTHER = 'APAC';
const ALL = { regionName: 'all', locationName: 'all', roomName: 'all' };
const IN_REGION = { ...ALL, regionName: REGION };
const inside = fleet.find((d) => d.details.region === REGION && !d.status.connected)!;
const outside = fleet.find((d) => d.details.region === OTHER && !d.status.connected)!;
const PASSWORD = 'scoped-viewer-password-7';

type Place = { region: string; location: string; room: string };
type Device = { devicesn: string; details: Place };

let viewerToken = '';
let unscopedToken = '';
let watcherId = '';
const clients: LiveClient[] = [];

const signIn = async (username: string, password: string) => {
  const res = await api<{ accessToken: string }>('POST', '/api/authService/auth/signin', { body: { username, password } });
  expect(res.status).toBe(200);
  return res.body.accessToken;
};
const createUser = async (adminToken: string, scope?: object[]) => {
  const username = `scoped-${randomUUID().slice(0, 8)}`;
  const res = await api<Record<string, unknown>>('POST', '/api/authService/auth', {
    token: adminToken,
    body: { username, password: PASSWORD, email: `${username}@example.com`, name: 'Scoped Viewer', role: 'viewer', ...(scope ? { scope } : {}) },
  });
  expect(res.status).toBe(201);
  return { username, answer: res.body };
};
/** The viewer's answer (its token) and the API key's; `body` and `keyBody` as each is asked. */
const asViewer = <T>(method: string, path: string, body?: unknown) => api<T>(method, path, { token: viewerToken, ...(body === undefined ? {} : { body }) });
const asKey = <T>(method: string, path: string, body?: unknown) => api<T>(method, path, body === undefined ? {} : { body });
const offlineWatcher = (devicesId: string[]) => ({
  user: 'ops', dashboard: 'scope-e2e', service: 'video', type: 'offline', allDevices: false, devicesId, severity: 3, sendEmail: false,
  operations: { type: 'device', operatorType: 'AND', conditions: [{ element: 'status.connected', operator: '==', value: 'false' }] },
});

beforeAll(async () => {
  const admin = inject('admin');
  const adminToken = await signIn(admin.username, admin.password);
  const scoped = await createUser(adminToken, [{ region: REGION }]);
  expect(scoped.answer.scope).toEqual([{ region: REGION }]);
  viewerToken = await signIn(scoped.username, PASSWORD);
  const unscoped = await createUser(adminToken);
  expect(unscoped.answer).not.toHaveProperty('scope');
  unscopedToken = await signIn(unscoped.username, PASSWORD);
  // rooms other files' watchers made red settle first; this file's watcher has one device in and one outside the scope
  await asKey('POST', '/alarms/evaluate');
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  if (watcherId) await asKey('DELETE', `/watcher/${watcherId}`);
  await asKey('POST', '/alarms/evaluate');
});

const COUNTS = ['all/totalDevices', 'all/devicesConnected', 'all/numOfDevicesByRoom', 'room/numOfRooms', 'room/numDevicesConnected', 'room/roomStatusCount'];

describe('counts of a region-scoped viewer', () => {
  it.each(COUNTS)("POST videoDevice/%s of everything equals the API key's answer for its region", async (path) => {
    const [viewer, key] = await Promise.all([asViewer(`POST`, `/videoDevice/${path}`, ALL), asKey('POST', `/videoDevice/${path}`, IN_REGION)]);
    expect(viewer.status).toBe(200);
    expect(viewer.body).toEqual(key.body);
  });

  it('counts nothing for a filter naming another region', async () => {
    expect((await asViewer('POST', '/videoDevice/all/totalDevices', { ...ALL, regionName: OTHER })).body).toEqual([0]);
    expect((await asViewer('POST', '/videoDevice/room/numOfRooms', { ...ALL, regionName: OTHER })).body).toEqual({ totalRooms: 0 });
  });

  it('an unscoped viewer counts what the API key counts', async () => {
    const [viewer, key] = await Promise.all([
      api('POST', '/videoDevice/room/numDevicesConnected', { token: unscopedToken, body: ALL }),
      asKey('POST', '/videoDevice/room/numDevicesConnected', ALL),
    ]);
    expect(viewer.body).toEqual(key.body);
    expect(viewer.body).toMatchObject({ total: 240 });
  });
});

describe('lists of a region-scoped viewer', () => {
  const sns = (devices: Device[]) => devices.map((d) => d.devicesn).sort();

  it('POST videoDevice/all/allDevices holds only devices of its region, every one of them, listed and paged', async () => {
    const [viewer, key] = await Promise.all([asViewer<Device[]>('POST', '/videoDevice/all/allDevices', ALL), asKey<Device[]>('POST', '/videoDevice/all/allDevices', IN_REGION)]);
    expect(viewer.body.every((d) => d.details.region === REGION)).toBe(true);
    expect(sns(viewer.body)).toEqual(sns(key.body));
    expect(viewer.body).toHaveLength(fleet.filter((d) => d.details.region === REGION).length);
    const paged: Device[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: Device[]; nextCursor: string | null } } = await asViewer('POST', `/videoDevice/all/allDevices?limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, ALL);
      paged.push(...page.body.items);
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(sns(paged)).toEqual(sns(key.body));
  });

  it('POST live/rooms and room/availability answer only rooms of its region', async () => {
    const rooms = await asViewer<Place[]>('POST', '/live/rooms', ALL);
    expect(rooms.body).toEqual((await asKey('POST', '/live/rooms', IN_REGION)).body);
    const availability = await asViewer<{ rooms: Place[] }>('POST', '/videoDevice/room/availability', ALL);
    expect(availability.status).toBe(200);
    const keyAvailability = await asKey<{ rooms: Place[] }>('POST', '/videoDevice/room/availability', IN_REGION);
    const places = (answer: { rooms: Place[] }) => answer.rooms.map((r) => `${r.region}/${r.location}/${r.room}`).sort();
    expect(places(availability.body)).toEqual(places(keyAvailability.body));
    expect(availability.body.rooms.length).toBeGreaterThan(0);
  });
});

describe('one device of another region', () => {
  const unknownBody = async (path: string, method = 'POST') => (await asKey<{ message: string }>(method, path.replace(outside.devicesn, 'NO-SUCH-SN'))).body;

  it('is 404 on get, history and refresh, with the body of an unknown serial number', async () => {
    for (const [method, path] of [
      ['POST', `/videoDevice/${outside.devicesn}`],
      ['GET', `/videoDevice/${outside.devicesn}/history`],
      ['POST', `/videoDevice/refresh/${outside.devicesn}`],
    ] as const) {
      const res = await asViewer<{ message: string }>(method, path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.body.message).toBe((await unknownBody(path, method)).message.replace('NO-SUCH-SN', outside.devicesn));
    }
  });

  it('a device of its own region is answered', async () => {
    expect((await asViewer<Device>('POST', `/videoDevice/${inside.devicesn}`)).body.details.region).toBe(REGION);
    expect((await asViewer('GET', `/videoDevice/${inside.devicesn}/history`)).status).toBe(200);
  });
});

describe('lookups of a region-scoped viewer', () => {
  it('list and count only its region', async () => {
    expect((await asViewer('POST', '/filters/region', {})).body).toEqual([REGION]);
    expect((await asViewer('POST', '/filters/location', {})).body).toEqual((await asKey('POST', '/filters/location', { regionName: REGION })).body);
    expect((await asViewer('POST', '/filters/room', { filters: ALL })).body).toEqual((await asKey('POST', '/filters/room', { filters: IN_REGION })).body);
    expect((await asViewer('POST', '/filters/region', { filters: ALL })).body).toBe(1);
    expect((await asViewer('GET', `/filters/location/byzone/${REGION}`)).body).toBe(3);
    expect((await asViewer('GET', `/filters/location/byzone/${OTHER}`)).body).toBe(0);
  });

  it('GET filters/videodevices lists the serial numbers of its region only', async () => {
    const expected = fleet.filter((d) => d.details.region === REGION).map((d) => d.devicesn).sort();
    expect((await asViewer('GET', '/filters/videodevices')).body).toEqual(expected);
  });
});

describe('alarms and live updates of a region-scoped viewer', () => {
  it('lists, pushes and history hold only alarms of its region; the outbox is not a viewer\'s to read', async () => {
    const socket = await openSocket((await asViewer<{ url: string }>('POST', '/live/ticket')).body.url);
    clients.push(socket);
    socket.send({ action: 'subscribe', filter: ALL });
    const subscribed = await socket.next((m) => m.type === 'subscribed');
    expect(subscribed.snapshot).toEqual((await asKey('POST', '/videoDevice/room/roomStatusCount', IN_REGION)).body);

    watcherId = (await asKey<string>('POST', '/watcher', offlineWatcher([inside.devicesn, outside.devicesn]))).body;
    expect((await asKey('POST', '/alarms/evaluate')).status).toBe(200);
    const raised = await socket.next((m) => m.type === 'alarm' && m.event === 'raised' && (m.alarm as { watcherId: string }).watcherId === watcherId);
    expect(raised.alarm).toMatchObject({ devicesn: inside.devicesn });

    const mine = `/alarms?watcherId=${watcherId}`;
    expect((await asKey<{ devicesn: string }[]>('GET', mine)).body.map((a) => a.devicesn).sort()).toEqual([inside.devicesn, outside.devicesn].sort());
    expect((await asViewer<{ devicesn: string }[]>('GET', mine)).body.map((a) => a.devicesn)).toEqual([inside.devicesn]);
    expect((await asViewer('GET', `${mine}&region=${OTHER}`)).body).toEqual([]);
    const availability = await asViewer<{ rooms: Place[] }>('POST', '/videoDevice/room/availability', ALL);
    expect(availability.body.rooms.every((r) => r.region === REGION)).toBe(true);

    await asKey('DELETE', `/watcher/${watcherId}`);
    const cleared = watcherId;
    watcherId = '';
    await asKey('POST', '/alarms/evaluate');
    await socket.next((m) => m.type === 'alarm' && m.event === 'cleared' && (m.alarm as { watcherId: string }).watcherId === cleared);
    const history = `/alarms/history?watcherId=${cleared}`;
    expect((await asKey<{ items: { devicesn: string }[] }>('GET', history)).body.items.map((r) => r.devicesn).sort()).toEqual([inside.devicesn, outside.devicesn].sort());
    expect((await asViewer<{ items: { devicesn: string }[] }>('GET', history)).body.items.map((r) => r.devicesn)).toEqual([inside.devicesn]);
    expect((await asViewer<{ items: { region: string }[] }>('GET', '/alarms/history')).body.items.every((r) => r.region === REGION)).toBe(true);

    // every push the scoped socket heard lies in its region
    const places = socket.messages.flatMap((m) => (m.type === 'room' ? [m.room] : m.type === 'alarm' ? [m.alarm] : [])) as Place[];
    expect(places.length).toBeGreaterThan(0);
    expect(places.filter((p) => p.region !== REGION)).toEqual([]);

    const outbox = await asViewer<{ message: string }>('GET', '/alarms/outbox');
    expect(outbox.status).toBe(403);
    expect(outbox.body.message).toContain('channels:write');
    expect((await api('GET', '/alarms/outbox', { token: unscopedToken })).status).toBe(403);
    expect((await asKey('GET', '/alarms/outbox')).status).toBe(200);
  });
});

describe('location profiles of a region-scoped viewer (issue 28 item 4)', () => {
  it('reads the profiles of its region, 404 elsewhere, lists its share, and may not write', async () => {
    const tag = randomUUID().slice(0, 8);
    const mine = `/locations/${REGION}/profile-e2e-${tag}/profile`;
    const theirs = `/locations/${OTHER}/profile-e2e-${tag}/profile`;
    expect((await asKey('PUT', mine, { timeZone: 'Europe/Berlin' })).status).toBe(200);
    expect((await asKey('PUT', theirs, { timeZone: 'Asia/Tokyo' })).status).toBe(200);
    try {
      expect((await asViewer<{ timeZone: string }>('GET', mine)).body.timeZone).toBe('Europe/Berlin');
      expect((await asViewer('GET', theirs)).status).toBe(404);
      const listed = await asViewer<{ items: Place[] }>('GET', '/locations/profiles?limit=1000');
      expect(listed.status).toBe(200);
      expect(listed.body.items.every((p) => p.region === REGION)).toBe(true);
      expect(listed.body.items.map((p) => p.location)).toContain(`profile-e2e-${tag}`);
      expect((await asViewer('PUT', mine, { timeZone: 'UTC' })).status).toBe(403);
      expect((await asViewer('DELETE', mine)).status).toBe(403);
    } finally {
      await asKey('DELETE', mine);
      await asKey('DELETE', theirs);
    }
  });
});
