import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from '../support/api';
import { routes, samplePath } from '../support/routes';
import { eventSchemaOf } from '../support/schemas';
import { UserEntity, userRoleKeys } from '#lib/access/entities';
import { ALARM_INDEX, AlarmEntity } from '#lib/alarms/entities';
import { OUTBOX } from '#lib/notify/mail/entities';
import { roomId } from '#lib/store/placeKeys';

type ErrorBody = { message: string; errors?: { field: string }[] };
type PageBody = { items: unknown[]; nextCursor: string | null };

/** A cursor in the shape main once answered: the start key as base64url JSON, unsigned. */
const forged = (key: Record<string, unknown>) => Buffer.from(JSON.stringify(key)).toString('base64url');
const FORGED_KEYS = {
  'a key in another partition': { ...UserEntity.key('admin'), ...userRoleKeys('admin', 'admin') },
  'empty key strings': { PK: '', SK: '', GSI1PK: '', GSI1SK: '' },
  'a key of the right partition, not signed': { ...AlarmEntity.key({ watcherId: 'x', devicesn: 'y' }), GSI1PK: ALARM_INDEX.firing, GSI1SK: '2024#x#y' },
  'a key with a number': { PK: 1, SK: 'a', GSI1PK: OUTBOX, GSI1SK: 'b' },
  'a device position': { room: roomId({ region: 'EMEA', location: 'London', room: 'Room 1' }), sn: 'VD000001' },
};
const ALL = { regionName: 'all', locationName: 'all', roomName: 'all' };
const expect422 = (res: { status: number; body: ErrorBody }) => {
  expect(res.status).toBe(422);
  expect(res.body.errors?.map((e) => e.field)).toEqual(['queryStringParameters.cursor']);
};

/** Every route declaring a `cursor` query parameter, read from the route files and schemas. */
const paginated = (await routes()).filter((route) => {
  const query = eventSchemaOf(route)?.properties as { queryStringParameters?: { anyOf?: { properties?: object }[] } } | undefined;
  return query?.queryStringParameters?.anyOf?.some((branch) => branch.properties && 'cursor' in branch.properties);
});
/** A valid request body for the paginated routes that need one. */
const BODIES: Record<string, unknown> = { devicesAllDevices: ALL };
/** Paths naming a record that exists, for paginated routes under one (404 would come first). */
const PATHS: Record<string, string> = {};
/** An admin's token, for paginated routes only an admin may call (401/403 would come first). */
let adminToken: string | undefined;

beforeAll(async () => {
  const admin = inject('admin');
  adminToken = (await api<{ accessToken: string }>('POST', '/api/authService/auth/signin', { body: { username: admin.username, password: admin.password } })).body.accessToken;
  const device = await api<{ items: { devicesn: string }[] }>('POST', '/videoDevice/all/allDevices?limit=1', { body: ALL });
  const [first] = device.body.items;
  expect(first).toBeDefined();
  PATHS.devicesHistory = `/videoDevice/${encodeURIComponent(first?.devicesn ?? '')}/history`;
  const channel = await api<{ id: string }>('POST', '/channels', { body: { name: 'cursor e2e', type: 'email', emails: ['cursor-e2e@example.com'] } });
  expect(channel.status).toBe(201);
  PATHS.channelsDeliveries = `/channels/${channel.body.id}/deliveries`;
  const window = await api<{ id: string }>('POST', '/maintenance', {
    body: { matchers: { vendor: 'cursor-e2e' }, schedule: { days: ['SU'], start: '03:00', durationMinutes: 60, timeZone: 'UTC' }, comment: 'cursor e2e' },
  });
  expect(window.status).toBe(201);
  PATHS.maintenanceHistory = `/maintenance/${window.body.id}/history`;
});
afterAll(async () => {
  const id = PATHS.channelsDeliveries?.split('/')[2];
  if (id) await api('DELETE', `/channels/${id}`);
  const window = PATHS.maintenanceHistory?.split('/')[2];
  if (window) await api('DELETE', `/maintenance/${window}`);
});

describe('every paginated route, found from its declaration, refuses a cursor it did not answer', () => {
  it('finds the paginated routes', () => expect(paginated.length).toBeGreaterThanOrEqual(3));

  it.each(paginated.map((route) => [`${route.method} /${route.path}`, route] as const))('%s answers 422 for forged cursors', async (_label, route) => {
    const body = route.method === 'GET' ? undefined : BODIES[route.functionName];
    expect(route.method === 'GET' || body !== undefined, `add a valid body for ${route.functionName} to BODIES`).toBe(true);
    for (const key of Object.values(FORGED_KEYS)) {
      const token = route.contract.permission === 'admin' ? adminToken : undefined;
      expect422(await api<ErrorBody>(route.method, `${PATHS[route.functionName] ?? samplePath(route)}?limit=5&cursor=${forged(key)}`, { body, ...(token ? { token } : {}) }));
    }
  });
});

describe('every cursor of every paginated endpoint is checked', () => {
  it.each(Object.entries(FORGED_KEYS))('GET /alarms answers 422 for a cursor holding %s', async (_case, key) => {
    expect422(await api<ErrorBody>('GET', `/alarms?limit=5&cursor=${forged(key)}`));
  });

  it.each(Object.entries(FORGED_KEYS))('GET /alarms/outbox answers 422 for a cursor holding %s', async (_case, key) => {
    expect422(await api<ErrorBody>('GET', `/alarms/outbox?limit=5&cursor=${forged(key)}`));
  });

  it.each(Object.entries(FORGED_KEYS))('POST allDevices answers 422 for a cursor holding %s', async (_case, key) => {
    expect422(await api<ErrorBody>('POST', `/videoDevice/all/allDevices?limit=5&cursor=${forged(key)}`, { body: ALL }));
  });

  it('a cursor answered for one query pages that query, and only that query', async () => {
    const emea = { ...ALL, regionName: 'EMEA' };
    const first = await api<PageBody>('POST', '/videoDevice/all/allDevices?limit=5', { body: emea });
    const cursor = first.body.nextCursor;
    expect(cursor).toEqual(expect.any(String));
    const next = await api<PageBody>('POST', `/videoDevice/all/allDevices?limit=5&cursor=${cursor}`, { body: emea });
    expect(next.status).toBe(200);
    expect(next.body.items).toHaveLength(5);
    // the same cursor with another scope, on another endpoint, or with one character changed
    expect422(await api<ErrorBody>('POST', `/videoDevice/all/allDevices?limit=5&cursor=${cursor}`, { body: { ...ALL, regionName: 'APAC' } }));
    expect422(await api<ErrorBody>('GET', `/alarms?limit=5&cursor=${cursor}`));
    expect422(await api<ErrorBody>('GET', `/alarms/outbox?limit=5&cursor=${cursor}`));
    const [position = '', tag = ''] = String(cursor).split('.');
    const edited = `${position.slice(0, -1)}${position.endsWith('A') ? 'B' : 'A'}.${tag}`;
    expect422(await api<ErrorBody>('POST', `/videoDevice/all/allDevices?limit=5&cursor=${edited}`, { body: emea }));
  });
});
