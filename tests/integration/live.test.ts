import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullPass } from '#lib/alarms/engine/fullPass';
import { managementApi } from '#lib/adapters/connections';
import { outboxMailer } from '#lib/adapters/mail';
import * as alarms from '#lib/alarms/repository/alarms';
import { doc, tableName } from '#lib/store/client';
import * as liveConnections from '#lib/live/repository/connections';
import * as liveTickets from '#lib/live/repository/tickets';
import * as rooms from '#lib/rollups/repository/rooms';
import * as watchers from '#lib/watchers/repository';
import type { DeviceProvider } from '#lib/inventory/provider/index';
import { roomStatusCount } from '#lib/devices/stats';
import { syncDevices } from '#lib/inventory/sync';
import type { ProviderDevice } from '#lib/devices/types';
import { HttpError } from '#lib/shared/errors';
import { listAlarms } from '#lib/alarms/query';
import { createSilenceAndAnnounce, endSilenceAndAnnounce } from '#lib/alarms/silenceEvents';
import { enableLivePush, pushTo } from '#lib/live/push';
import { admit, connect, disconnect, issueTicket, MESSAGE_WINDOW_SECONDS, subscribe } from '#lib/live/session';
import type { Connections } from '#lib/live/types';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import validate from '#generated/validators/liveMessage';
import { LiveTicketEntity } from '#lib/live/entities';

// A stand-in for API Gateway's @connections endpoint on a loopback port: it records what it is
// asked to deliver and answers 410 Gone for connections it was told are closed.
const received = new Map<string, unknown[]>();
const closed = new Set<string>();
let server: Server;
let endpoint = '';
let api: Connections;

beforeAll(async () => {
  server = createServer((req, res) => {
    const id = decodeURIComponent((req.url ?? '').replace('/@connections/', ''));
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.method !== 'POST' || closed.has(id)) {
        res.writeHead(410).end();
        return;
      }
      received.set(id, [...(received.get(id) ?? []), JSON.parse(body)]);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  endpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  api = managementApi(endpoint);
  enableLivePush(api);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;
const device = (region: string, sn: string, room: string, connected: boolean): ProviderDevice => ({
  deviceid: `id-${sn}`,
  devicesn: sn,
  devicemodel: 'X50',
  status: { connected, inCallStatus: 'NONE' },
  details: { region, location: 'London', room },
});
const fixed = (fleet: () => ProviderDevice[]): DeviceProvider => ({
  listDevices: async () => fleet(),
  getDevice: async (sn) => fleet().find((d) => d.devicesn === sn),
});
const filterOf = (regionName: string, roomName = 'all') => ({ regionName, locationName: 'all', roomName });
/** A registered connection on `filter`, opened through a ticket like a browser's. */
const opened = async (filter: ReturnType<typeof filterOf>) => {
  const id = unique('conn');
  const { ticket } = await issueTicket(filter, 'ws://localhost:1');
  await connect(id, ticket);
  return id;
};
const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as HttpError);

describe('live tickets', () => {
  it('a ticket opens exactly one connection, on its filter, and the table never holds the ticket itself', async () => {
    const filter = filterOf(unique('R'));
    const { ticket, url, expiresAt } = await issueTicket(filter, 'wss://example.com/prod');
    expect(new URL(url).searchParams.get('ticket')).toBe(ticket);
    expect(url.startsWith('wss://example.com/prod?ticket=')).toBe(true);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(55_000);
    const { Items } = await doc.send(new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': `${LiveTicketEntity.key(ticket).PK.split('#')[0]}#${ticket}` } }));
    expect(Items).toEqual([]);

    const first = unique('conn');
    await connect(first, ticket);
    expect(await liveConnections.find(first)).toMatchObject({ filter });
    expect((await failure(connect(unique('conn'), ticket)))?.statusCode).toBe(401);
  });

  it('refuses an expired, unknown, missing or oversized ticket', async () => {
    await liveTickets.store('expired-ticket-value', filterOf('all'), Date.now() - 1);
    for (const ticket of ['expired-ticket-value', 'never-issued', undefined, 'x'.repeat(300)]) {
      expect((await failure(connect(unique('conn'), ticket)))?.statusCode).toBe(401);
    }
  });

  it('two connections racing for one ticket: one opens, one is refused', async () => {
    const { ticket } = await issueTicket(filterOf('all'), 'ws://localhost:1');
    const outcomes = await Promise.all([failure(connect(unique('conn'), ticket)), failure(connect(unique('conn'), ticket))]);
    expect(outcomes.filter((error) => error === undefined)).toHaveLength(1);
  });
});

describe('live subscriptions', () => {
  it('subscribe moves the connection to the new scope and answers its roomStatusCount', async () => {
    const region = unique('R');
    await syncDevices(fixed(() => [device(region, `${region}-1`, 'A', true), device(region, `${region}-2`, 'B', false)]));
    const id = await opened(filterOf('all'));
    const answer = await subscribe(id, JSON.stringify({ action: 'subscribe', filter: filterOf(region) }), validate);
    expect(answer).toEqual({ type: 'subscribed', filter: filterOf(region), snapshot: roomStatusCount(await rooms.inPlace({ region })) });
    expect(answer).toMatchObject({ snapshot: { TotalRooms: 2, OKStatus: 2 } });
    expect(await liveConnections.find(id)).toMatchObject({ filter: filterOf(region) });
    expect((await liveConnections.subscribers([`${encodeURIComponent(region)}#all#all`])).map((s) => s.connectionId)).toEqual([id]);
    expect((await liveConnections.subscribers(['all#all#all'])).map((s) => s.connectionId)).not.toContain(id);
  });

  it('an invalid filter is an error naming the field; the scope stays', async () => {
    const id = await opened(filterOf('all'));
    const error = await failure(subscribe(id, JSON.stringify({ action: 'subscribe', filter: { regionName: '', locationName: 'all' } }), validate));
    expect(error?.message).toContain('filter.regionName');
    expect(error?.message).toContain('filter.roomName is required');
    expect((await failure(subscribe(id, 'not json', validate)))?.message).toContain('not valid JSON');
    expect(await liveConnections.find(id)).toMatchObject({ filter: filterOf('all') });
  });

  it('a closed connection is forgotten with its subscription, and cannot subscribe', async () => {
    const region = unique('R');
    const id = await opened(filterOf(region));
    await disconnect(id);
    expect(await liveConnections.find(id)).toBeUndefined();
    expect(await liveConnections.subscribers([`${encodeURIComponent(region)}#all#all`])).toEqual([]);
    expect((await failure(subscribe(id, JSON.stringify({ action: 'subscribe', filter: filterOf('all') }), validate)))?.message).toContain('no longer registered');
  });
});

describe('live subscriptions under hostile clients (issue 24 items 5, 6)', () => {
  const subscribeTo = (id: string, filter: unknown) => subscribe(id, JSON.stringify({ action: 'subscribe', filter }), validate);
  /** Every subscription item of `id` under the given scopes. */
  const subscriptionsOf = async (id: string, regions: string[]) =>
    (await liveConnections.subscribers([...regions.map((r) => `${encodeURIComponent(r)}#all#all`), 'all#all#all'])).filter((s) => s.connectionId === id);

  it('40 concurrent subscribes then one to a region leave exactly one subscription, in that region, and none after the close', async () => {
    const regions = ['LATAM', 'AMER', 'APAC', 'EMEA'].map((r) => unique(r));
    const id = await opened(filterOf('all'));
    const flood = Array.from({ length: 40 }, (_, i) => subscribeTo(id, filterOf(i % 5 === 4 ? 'all' : regions[i % 4]!)));
    await Promise.allSettled(flood);
    const emea = regions[3]!;
    expect(await subscribeTo(id, filterOf(emea))).toMatchObject({ type: 'subscribed' });
    expect(await liveConnections.find(id)).toMatchObject({ filter: filterOf(emea) });
    expect((await subscriptionsOf(id, regions)).map((s) => s.scopeKey)).toEqual([`${encodeURIComponent(emea)}#all#all`]);
    await disconnect(id);
    expect(await subscriptionsOf(id, regions)).toEqual([]);
  });

  it('a move that lost the race removes only its own subscription: concurrent moves to one scope keep the winner subscribed', async () => {
    const region = unique('R');
    for (let round = 0; round < 5; round++) {
      const id = await opened(filterOf('all'));
      await Promise.allSettled(Array.from({ length: 8 }, () => subscribeTo(id, filterOf(region))));
      const stored = await liveConnections.find(id);
      const subscriptions = await subscriptionsOf(id, [region]);
      expect(subscriptions).toEqual([{ connectionId: id, scopeKey: stored!.scopeKey, subscriptionId: stored!.subscriptionId }]);
      await disconnect(id);
    }
  });

  it('a lone surrogate in a filter is an error naming the field, not a URIError', async () => {
    const id = await opened(filterOf('all'));
    const error = await failure(subscribeTo(id, { regionName: 'EMEA\ud800', locationName: 'all', roomName: 'all' }));
    expect(error).toBeInstanceOf(HttpError);
    expect(error?.message).toBe('filter.regionName must be well-formed Unicode (no lone surrogates)');
    expect(await liveConnections.find(id)).toMatchObject({ filter: filterOf('all') });
  });

  it('a message nested deeper than the limit is an error naming the limit', async () => {
    const id = await opened(filterOf('all'));
    const error = await failure(subscribe(id, `{"action":"subscribe","filter":${'['.repeat(5100)}${']'.repeat(5100)}}`, validate));
    expect(error?.message).toContain('nesting limit');
  });

  it('counts every message of a connection: over 10 in a window is 429 "slow down", also when they arrive at once', async () => {
    const id = await opened(filterOf('all'));
    const start = Math.ceil(Date.now() / 1000 / MESSAGE_WINDOW_SECONDS) * MESSAGE_WINDOW_SECONDS * 1000 + 60_000;
    const outcomes = await Promise.allSettled(Array.from({ length: 30 }, () => admit(id, start)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(10);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => o.reason as HttpError);
    expect(refused.every((e) => e.statusCode === 429 && e.message.includes('slow down'))).toBe(true);
    // the next window admits again
    expect(await admit(id, start + MESSAGE_WINDOW_SECONDS * 1000)).toMatchObject({ connectionId: id, messages: 1 });
    await disconnect(id);
    expect((await failure(admit(id, start)))?.message).toContain('no longer registered');
  });
});

describe('live pushes', () => {
  it('a stored room change reaches the connections whose scope holds the room, and no other', async () => {
    const region = unique('R');
    let connected = true;
    const provider = fixed(() => [device(region, `${region}-1`, 'A', connected), device(region, `${region}-2`, 'B', true)]);
    await syncDevices(provider);
    const inRegion = await opened(filterOf(region));
    const inRoom = await opened(filterOf(region, 'A'));
    const otherRoom = await opened(filterOf(region, 'B'));
    const elsewhere = await opened(filterOf(unique('R')));

    connected = false;
    await syncDevices(provider);
    const pushed = { type: 'room', at: expect.any(String), room: { region, location: 'London', room: 'A', roomStatus: 'OK', deviceCount: 1, online: 0, offline: 1 } };
    expect(received.get(inRegion)).toEqual([pushed]);
    expect(received.get(inRoom)).toEqual([pushed]);
    expect(received.get(otherRoom)).toBeUndefined();
    expect(received.get(elsewhere)).toBeUndefined();

    // nothing changed, nothing stored, nothing pushed
    await syncDevices(provider);
    expect(received.get(inRegion)).toHaveLength(1);
  });

  it('a raised alarm is pushed after it is stored, followed by the room whose status it changed', async () => {
    const region = unique('R');
    await syncDevices(fixed(() => [device(region, `${region}-1`, 'A', false)]));
    const id = await opened(filterOf(region));
    const watcherId = await watchers.create({
      user: 'ops', dashboard: 'd', service: 's', type: 't', allDevices: true, severity: 1, sendEmail: false,
      operations: { type: 'device', operatorType: 'AND', conditions: [{ element: 'details.region', operator: '==', value: region }] },
    });
    await fullPass({ mailer: outboxMailer(), deadline: Date.now() + 30_000 });
    expect(received.get(id)).toEqual([
      { type: 'alarm', event: 'raised', at: expect.any(String), alarm: expect.objectContaining({ id: `${watcherId}:${region}-1`, severity: 1, room: 'A', region }) },
      { type: 'room', at: expect.any(String), room: expect.objectContaining({ room: 'A', roomStatus: 'Critical' }) },
    ]);
    await alarms.acknowledge({ watcherId, devicesn: `${region}-1` }, { acknowledgedAt: new Date().toISOString(), acknowledgedBy: 'ana' });
    expect(received.get(id)?.[2]).toMatchObject({ type: 'alarm', event: 'acknowledged', alarm: { id: `${watcherId}:${region}-1`, acknowledgedBy: 'ana' } });
    await watchers.remove(watcherId);
    await fullPass({ mailer: outboxMailer(), deadline: Date.now() + 30_000 });
    expect(received.get(id)?.[3]).toMatchObject({ type: 'alarm', event: 'cleared', alarm: { clearReason: 'watcher deleted', clearedAt: expect.any(String) } });
  });

  it('a connection API Gateway reports gone (410) is forgotten by the push that found it', async () => {
    const region = unique('R');
    const alive = await opened(filterOf(region));
    const gone = await opened(filterOf(region));
    closed.add(gone);
    const result = await pushTo(api, { region, location: 'London', room: 'A' }, { type: 'test' });
    // (connections on all/all/all from other tests hear it too)
    expect(result).toMatchObject({ gone: 1, failed: 0, delivered: result.subscribers - 1 });
    expect(received.get(alive)).toEqual([{ type: 'test' }]);
    expect(await liveConnections.find(gone)).toBeUndefined();
    expect(await liveConnections.find(alive)).toBeDefined();
    expect(await pushTo(api, { region, location: 'London', room: 'A' }, { type: 'test' })).toMatchObject({ gone: 0, delivered: result.subscribers - 1 });
  });
});

describe('live pushes of silences', () => {
  const hourFromNow = () => new Date(Date.now() + 3_600_000).toISOString();
  const evaluate = () => fullPass({ mailer: outboxMailer(), deadline: Date.now() + 30_000 });
  const alarmEvents = (id: string) => (received.get(id) ?? []).filter((m) => (m as { type: string }).type === 'alarm') as { event: string; alarm: { id: string; silencedBy: string[] } }[];
  /** The open alarm as GET /alarms?region=… answers it now. */
  const answered = async (region: string, alarmId: string) => ((await listAlarms({ region })) as { id: string }[]).find((a) => a.id === alarmId);

  it('a silence started while alarms fire pushes `silenced` for each it matches, as GET /alarms answers them; ending it pushes `unsilenced`', async () => {
    const region = unique('R');
    const devices = [device(region, `${region}-1`, 'A', false), device(region, `${region}-2`, 'A', false), device(region, `${region}-3`, 'B', false)];
    await syncDevices(fixed(() => devices));
    const watcherId = await watchers.create({
      user: 'ops', dashboard: 'd', service: 's', type: 't', allDevices: true, severity: 2, sendEmail: false,
      operations: { type: 'device', operatorType: 'AND', conditions: [{ element: 'details.region', operator: '==', value: region }] },
    });
    await evaluate();
    const inRegion = await opened(filterOf(region));
    const roomB = await opened(filterOf(region, 'B'));
    const elsewhere = await opened(filterOf(unique('R')));

    // a silence that starts later silences nothing yet: nothing is pushed
    await createSilenceAndAnnounce({ matchers: { region }, startsAt: new Date(Date.now() + 600_000).toISOString(), endsAt: hourFromNow(), comment: 'later' }, 'ana');
    expect(received.get(inRegion)).toBeUndefined();

    const silence = await createSilenceAndAnnounce({ matchers: { region, room: 'A' }, endsAt: hourFromNow(), comment: 'works in A' }, 'ana');
    const silenced = alarmEvents(inRegion);
    expect(silenced.map((m) => [m.event, m.alarm.id]).sort()).toEqual([
      ['silenced', `${watcherId}:${region}-1`],
      ['silenced', `${watcherId}:${region}-2`],
    ]);
    for (const message of silenced) {
      expect(message.alarm.silencedBy).toEqual([silence.id]);
      expect(message.alarm).toEqual(await answered(region, message.alarm.id));
    }
    expect(received.get(roomB)).toBeUndefined();
    expect(received.get(elsewhere)).toBeUndefined();

    // by watcher and device: the watcher's own alarms, found by key
    const byDevice = await createSilenceAndAnnounce({ matchers: { watcherId, devicesn: `${region}-3` }, endsAt: hourFromNow(), comment: 'one device' }, 'ana');
    expect(alarmEvents(roomB).map((m) => [m.event, m.alarm.id, m.alarm.silencedBy])).toEqual([['silenced', `${watcherId}:${region}-3`, [byDevice.id]]]);

    // ending the room silence early frees A's alarms; B's stays silenced by the other
    received.clear();
    await endSilenceAndAnnounce(silence.id);
    expect(alarmEvents(inRegion).map((m) => [m.event, m.alarm.id, m.alarm.silencedBy]).sort()).toEqual([
      ['unsilenced', `${watcherId}:${region}-1`, []],
      ['unsilenced', `${watcherId}:${region}-2`, []],
    ]);
    // ending it again changes nothing and pushes nothing
    received.clear();
    await endSilenceAndAnnounce(silence.id);
    expect(received.get(inRegion)).toBeUndefined();
    await watchers.remove(watcherId);
    await evaluate();
  });

  it('an alarm raised while a silence holds it is pushed with silencedBy, as GET /alarms answers it', async () => {
    const region = unique('R');
    await syncDevices(fixed(() => [device(region, `${region}-1`, 'A', false)]));
    const silence = await createSilenceAndAnnounce({ matchers: { region }, endsAt: hourFromNow(), comment: 'before the alarm' }, 'ana');
    const id = await opened(filterOf(region));
    const watcherId = await watchers.create({
      user: 'ops', dashboard: 'd', service: 's', type: 't', allDevices: true, severity: 2, sendEmail: false,
      operations: { type: 'device', operatorType: 'AND', conditions: [{ element: 'details.region', operator: '==', value: region }] },
    });
    await evaluate();
    const [raised] = alarmEvents(id);
    expect(raised).toMatchObject({ event: 'raised', alarm: { id: `${watcherId}:${region}-1`, silencedBy: [silence.id] } });
    expect(raised!.alarm).toEqual(await answered(region, raised!.alarm.id));
    await endSilenceAndAnnounce(silence.id);
    await watchers.remove(watcherId);
    await evaluate();
  });
});
