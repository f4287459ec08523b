import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import { api } from '../support/api';
import { openSocket, refusal, type LiveClient } from '../support/socket';

// The shared e2e server (still simulated fleet, seed 42, 240 devices; alarms only on POST
// /alarms/evaluate). This file's watcher targets one offline device, so its pushes are its own.
const fleet = simulatedFleet({ seed: 42, devices: 240 });
const target = fleet.find((d) => !d.status.connected)!;
const room = { regionName: target.details.region, locationName: target.details.location, roomName: target.details.room };
const elsewhere = fleet.find((d) => d.details.region !== target.details.region)!.details.region;
const ALL = { regionName: 'all', locationName: 'all', roomName: 'all' };

interface Ticket {
  ticket: string;
  url: string;
  expiresAt: string;
}
const ticketFor = async (filter?: object) => {
  const res = await api<Ticket>('POST', '/live/ticket', filter ? { body: { filter } } : {});
  expect(res.status).toBe(201);
  return res.body;
};
const subscribed = async (client: LiveClient, filter: object) => {
  client.send({ action: 'subscribe', filter });
  return client.next((m) => m.type === 'subscribed' && JSON.stringify(m.filter) === JSON.stringify(filter));
};

let watcherId = '';
const clients: LiveClient[] = [];
const client = async (filter?: object) => {
  const opened = await openSocket((await ticketFor(filter)).url);
  clients.push(opened);
  return opened;
};

beforeAll(async () => {
  // rooms the other files' watchers made red must not make this file's room look changed
  await api('POST', '/alarms/evaluate');
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  if (watcherId) await api('DELETE', `/watcher/${watcherId}`);
  await api('POST', '/alarms/evaluate');
});

describe('POST /live/ticket', () => {
  it('answers 201 a ticket valid for 60 s and the ws:// address carrying it', async () => {
    const { ticket, url, expiresAt } = await ticketFor(room);
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(url).toMatch(/^ws:\/\/localhost:\d+\/?\?ticket=/);
    expect(new URL(url).searchParams.get('ticket')).toBe(ticket);
    const seconds = (Date.parse(expiresAt) - Date.now()) / 1000;
    expect(seconds).toBeGreaterThan(50);
    expect(seconds).toBeLessThanOrEqual(60);
  });

  it('takes no body, or a filter with the rules of device queries (422 naming the field)', async () => {
    expect((await api('POST', '/live/ticket')).status).toBe(201);
    const res = await api<{ errors: { field: string }[] }>('POST', '/live/ticket', { body: { filter: { regionName: '', locationName: 'all' } } });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e) => e.field).sort()).toEqual(['body.filter.regionName', 'body.filter.roomName']);
  });
});

describe('WebSocket $connect', () => {
  it('refuses a connection without a ticket, with an unknown one, and with one already used', async () => {
    const { url } = await ticketFor();
    const bare = url.replace(/\?.*$/, '');
    expect(await refusal(bare)).toBe(401);
    expect(await refusal(`${bare}?ticket=not-a-ticket`)).toBe(401);
    const first = await openSocket(url);
    clients.push(first);
    expect(await refusal(url)).toBe(401);
  });
});

describe('WebSocket subscribe', () => {
  it('answers {type: subscribed, filter, snapshot} with the roomStatusCount of the scope', async () => {
    const c = await client();
    const answer = await subscribed(c, { ...ALL, regionName: target.details.region });
    const counts = await api('POST', '/videoDevice/room/roomStatusCount', { body: { ...ALL, regionName: target.details.region } });
    expect(answer.snapshot).toEqual(counts.body);
  });

  it('answers {type: error, message} naming the field for an invalid filter, and for an unknown action', async () => {
    const c = await client();
    c.send({ action: 'subscribe', filter: { regionName: 'all', locationName: 'all', roomName: 'all', extra: 1 } });
    expect((await c.next((m) => m.type === 'error')).message).toContain('filter.extra is not an allowed property');
    c.send({ action: 'dance' });
    expect(await c.next((m) => m.type === 'error' && String(m.message).startsWith('Unknown action'))).toBeDefined();
  });
});

describe('WebSocket messages from a hostile client (issue 24 item 5)', () => {
  it('a lone surrogate in a filter is an error message naming the field, not "Internal server error"', async () => {
    const c = await client();
    c.send({ action: 'subscribe', filter: { ...ALL, regionName: 'EMEA\ud800' } });
    const answer = await c.next((m) => m.type === 'error');
    expect(answer.message).toBe('filter.regionName must be well-formed Unicode (no lone surrogates)');
  });

  it('a flood of subscribes from one socket gets "slow down" answers past the rate, never "Internal server error"', async () => {
    const c = await client();
    for (let i = 0; i < 40; i++) c.send({ action: 'subscribe', filter: i % 2 ? ALL : { ...ALL, regionName: elsewhere } });
    await c.next(() => c.messages.length >= 40, 30_000);
    const errors = c.messages.filter((m) => m.type === 'error').map((m) => String(m.message));
    // past the rate "slow down"; an admitted one that kept losing to its siblings says so (409)
    expect(errors.filter((m) => !m.includes('slow down') && !m.includes('send the subscribe again'))).toEqual([]);
    expect(errors.length).toBeGreaterThanOrEqual(40 - 20); // at most two windows' worth admitted
    expect(c.messages.filter((m) => m.type === 'subscribed').length).toBeGreaterThan(0);
  });
});

describe('pushes', () => {
  it('a raised alarm and its room reach subscribers of the room, and not those of another region', async () => {
    const watching = await client();
    await subscribed(watching, room);
    // other files' watchers may have coloured the room already: this one is Critical, so it shows
    const [before] = (await api<{ roomStatus: string }[]>('POST', '/live/rooms', { body: room })).body;
    const regionOnly = await client({ ...ALL, regionName: target.details.region });
    const other = await client({ ...ALL, regionName: elsewhere });

    const created = await api<string>('POST', '/watcher', {
      body: {
        user: 'ops', dashboard: 'live-e2e', service: 'video', type: 'offline', allDevices: false, devicesId: [target.devicesn],
        severity: 1, sendEmail: false,
        operations: { type: 'device', operatorType: 'AND', conditions: [{ element: 'status.connected', operator: '==', value: 'false' }] },
      },
    });
    watcherId = created.body;
    expect((await api('POST', '/alarms/evaluate')).status).toBe(200);

    const raised = await watching.next((m) => m.type === 'alarm' && m.event === 'raised');
    expect(raised.alarm).toMatchObject({ id: `${watcherId}:${target.devicesn}`, severity: 1, devicesn: target.devicesn, room: target.details.room });
    const roomMessage = await watching.next((m) => m.type === 'room');
    expect(roomMessage.room).toMatchObject({ region: target.details.region, location: target.details.location, room: target.details.room, roomStatus: 'Critical' });
    const rooms = await api<object[]>('POST', '/live/rooms', { body: room });
    expect(rooms.body).toEqual([roomMessage.room]);
    await regionOnly.next((m) => m.type === 'room');

    await api('DELETE', `/watcher/${watcherId}`);
    watcherId = '';
    await api('POST', '/alarms/evaluate');
    expect((await watching.next((m) => m.type === 'alarm' && m.event === 'cleared')).alarm).toMatchObject({ clearReason: 'watcher deleted' });
    await watching.next((m) => m.type === 'room' && (m.room as { roomStatus: string }).roomStatus === before?.roomStatus);
    expect(other.messages.filter((m) => m.type !== 'subscribed')).toEqual([]);
  });

  it('a silence pushes `silenced` for the firing alarm it matches, as GET /alarms answers it, and its early end `unsilenced`', async () => {
    const watching = await client();
    await subscribed(watching, room);
    const created = await api<string>('POST', '/watcher', {
      body: {
        user: 'ops', dashboard: 'live-e2e-silence', service: 'video', type: 'offline', allDevices: false, devicesId: [target.devicesn],
        severity: 2, sendEmail: false,
        operations: { type: 'device', operatorType: 'AND', conditions: [{ element: 'status.connected', operator: '==', value: 'false' }] },
      },
    });
    const ownWatcher = created.body;
    const alarmId = `${ownWatcher}:${target.devicesn}`;
    let silenceId = '';
    try {
      await api('POST', '/alarms/evaluate');
      await watching.next((m) => m.type === 'alarm' && m.event === 'raised' && (m.alarm as { id: string }).id === alarmId);

      const silence = await api<{ id: string }>('POST', '/silences', {
        body: { matchers: { watcherId: ownWatcher, devicesn: target.devicesn }, endsAt: new Date(Date.now() + 3_600_000).toISOString(), comment: 'live e2e' },
      });
      expect(silence.status).toBe(201);
      silenceId = silence.body.id;
      const silenced = await watching.next((m) => m.type === 'alarm' && m.event === 'silenced' && (m.alarm as { id: string }).id === alarmId);
      expect(silenced.alarm).toMatchObject({ id: alarmId, silencedBy: [silenceId] });
      const listed = await api<{ id: string }[]>('GET', `/alarms?watcherId=${ownWatcher}`);
      expect(silenced.alarm).toEqual(listed.body.find((a) => a.id === alarmId));

      expect((await api('DELETE', `/silences/${silenceId}`)).status).toBe(200);
      const unsilenced = await watching.next((m) => m.type === 'alarm' && m.event === 'unsilenced' && (m.alarm as { id: string }).id === alarmId);
      expect(unsilenced.alarm).toMatchObject({ id: alarmId, silencedBy: [] });
    } finally {
      if (silenceId) await api('DELETE', `/silences/${silenceId}`);
      await api('DELETE', `/watcher/${ownWatcher}`);
      await api('POST', '/alarms/evaluate');
    }
  });
});
