import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import type { Place } from '#lib/devices/types';
import { api } from '../support/api';

// The e2e server syncs a still simulated fleet (240 devices, seed 42) and evaluates alarms only
// when asked (POST /alarms/evaluate). Other files leave watchers behind, so every assertion
// here is about this file's own watcher, its alarms and its unique mail address.
const fleet = simulatedFleet({ seed: 42, devices: 240 });
const offline = fleet.filter((d) => !d.status.connected).slice(0, 4);
const online = fleet.filter((d) => d.status.connected).slice(0, 4);
const email = `alarms-${randomUUID().slice(0, 8)}@example.com`;

interface AlarmView extends Place {
  id: string;
  watcherId: string;
  severity: number;
  devicesn: string;
  deviceid: string;
  raisedAt: string;
  description?: string;
}
interface MailView {
  id: string;
  to: string[];
  subject: string;
  text: string;
  html?: string;
  storedAt: string;
}
type ErrorBody = { message: string; errors?: { field: string; message: string }[] };

const watcherBody = {
  user: 'ops',
  dashboard: 'alarms-e2e',
  service: 'video',
  type: 'offline',
  allDevices: false,
  devicesId: [...offline, ...online].map((d) => d.devicesn),
  severity: 1,
  operations: { type: 'device', operatorType: 'AND', conditions: [{ operator: '==', value: 'false', element: 'status.connected' }] },
  description: 'Video device offline',
  sendEmail: true,
  emails: [email],
};
const evaluate = async () => {
  const res = await api<Record<string, number | boolean>>('POST', '/alarms/evaluate');
  expect(res.status).toBe(200);
  return res.body;
};
const alarmsOf = async (watcherId: string) => (await api<AlarmView[]>('GET', `/alarms?watcherId=${watcherId}`)).body;
const mails = async () => (await api<MailView[]>('GET', `/alarms/outbox?to=${encodeURIComponent(email)}`)).body;
const statusOf = async (place: Place) =>
  (await api<Record<string, number>>('POST', '/videoDevice/room/roomStatusCount', { body: { regionName: place.region, locationName: place.location, roomName: place.room } })).body;
const bySn = <T extends { devicesn: string }>(list: T[]) => [...list].sort((a, b) => (a.devicesn < b.devicesn ? -1 : 1));

let watcherId: string;
let summary: Record<string, number | boolean>;

beforeAll(async () => {
  watcherId = (await api<string>('POST', '/watcher', { body: watcherBody })).body;
  summary = await evaluate();
});

afterAll(async () => {
  await api('DELETE', `/watcher/${watcherId}`);
  await evaluate();
  expect(await alarmsOf(watcherId)).toEqual([]);
});

describe('alarms raised by a watcher for status.connected == false', () => {
  it('POST /alarms/evaluate answers the counts of the run', () => {
    expect(summary).toMatchObject({ raised: expect.any(Number), cleared: expect.any(Number), mailed: expect.any(Number), complete: true });
    expect(summary.raised).toBeGreaterThanOrEqual(offline.length);
  });

  it('GET /alarms lists exactly the disconnected devices of the target list, with severity and room', async () => {
    const res = await api<AlarmView[]>('GET', `/alarms?watcherId=${watcherId}`);
    expect(res.status).toBe(200);
    expect(bySn(res.body)).toEqual(
      bySn(offline).map((d) => ({
        id: `${watcherId}:${d.devicesn}`,
        state: 'firing',
        watcherId,
        severity: 1,
        devicesn: d.devicesn,
        deviceid: d.deviceid,
        ...d.details,
        raisedAt: expect.any(String),
        description: 'Video device offline',
        silencedBy: [],
        silencedByCount: 0,
      })),
    );
  });

  it('roomStatusCount shows the room of every alarmed device as Critical', async () => {
    for (const device of offline) {
      expect(await statusOf(device.details)).toMatchObject({ TotalRooms: 1, CriticalStatus: 1, OKStatus: 0 });
    }
  });

  it('puts one raised digest in the outbox for the run, listing every alarm, to the watcher recipients', async () => {
    const raised = (await mails()).filter((m) => !m.subject.includes('Cleared:'));
    expect(raised).toHaveLength(1);
    expect(raised[0]!.to).toEqual([email]);
    expect(raised[0]!.subject).toMatch(new RegExp(`^\\[Critical\\] ${offline.length} devices offline in `));
    for (const device of offline) {
      expect(raised[0]!.text).toContain(device.devicesn);
      expect(raised[0]!.html).toContain(device.devicesn);
    }
  });

  it('changes nothing when evaluated again: same alarms, same raise times, no new mail', async () => {
    const before = await alarmsOf(watcherId);
    const mailCount = (await mails()).length;
    await evaluate();
    expect(await alarmsOf(watcherId)).toEqual(before);
    expect(await mails()).toHaveLength(mailCount);
  });
});

describe('GET /alarms filters and pages', () => {
  it('narrows by room and severity', async () => {
    const { region, location, room } = offline[0]!.details;
    const q = new URLSearchParams({ region, location, room, severity: '1', watcherId });
    const res = await api<AlarmView[]>('GET', `/alarms?${q}`);
    expect(res.body.length).toBeGreaterThan(0);
    expect(res.body.every((a) => a.region === region && a.location === location && a.room === room && a.severity === 1)).toBe(true);
    expect((await api<AlarmView[]>('GET', `/alarms?watcherId=${watcherId}&severity=4`)).body).toEqual([]);
  });

  it('answers every open alarm newest first, one page at a time with limit and cursor', async () => {
    const all = (await api<AlarmView[]>('GET', '/alarms')).body;
    expect(all.map((a) => a.raisedAt)).toEqual([...all.map((a) => a.raisedAt)].sort().reverse());
    const seen: AlarmView[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { items: AlarmView[]; nextCursor: string | null } } = await api('GET', `/alarms?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.body.items.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.items);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen.map((a) => a.id)).toEqual(all.map((a) => a.id));
  });

  it.each([
    ['severity=5', 'queryStringParameters.severity'],
    ['limit=0', 'queryStringParameters.limit'],
    ['cursor=not-a-cursor', 'queryStringParameters.cursor'],
    ['colour=red', 'queryStringParameters.colour'],
  ])('answers 422 for %s', async (query, field) => {
    const res = await api<ErrorBody>('GET', `/alarms?${query}`);
    expect(res.status).toBe(422);
    expect((res.body.errors ?? []).map((e) => e.field)).toContain(field);
  });
});

describe('alarms clear when their watcher is deactivated', () => {
  it('clears every alarm of the watcher, mails each clear, and rooms show only the alarms still open', async () => {
    await api('PUT', `/watcher/${watcherId}/status`, { body: { active: false } });
    expect((await evaluate()).cleared).toBeGreaterThanOrEqual(offline.length);
    expect(await alarmsOf(watcherId)).toEqual([]);
    const cleared = (await mails()).filter((m) => m.subject.includes('Cleared:'));
    expect(cleared).toHaveLength(1);
    expect(cleared[0]!.subject).toMatch(new RegExp(`^\\[Critical\\] Cleared: ${offline.length} devices offline in `));
    expect(offline.every((d) => cleared[0]!.text.includes(d.devicesn))).toBe(true);
    expect(cleared[0]!.text).toContain('(watcher inactive)');
    const levels = ['Critical', 'Major', 'Minor', 'Info'];
    for (const device of offline) {
      const { region, location, room } = device.details;
      const others = (await api<AlarmView[]>('GET', `/alarms?${new URLSearchParams({ region, location, room })}`)).body;
      const worst = others.length ? levels[Math.min(...others.map((a) => a.severity)) - 1] : 'OK';
      expect(await statusOf(device.details)).toMatchObject({ TotalRooms: 1, [`${worst}Status`]: 1 });
    }
  });
});
