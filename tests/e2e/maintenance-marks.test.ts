import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import { api } from '../support/api';
import { adminToken, createRole, userWith } from '../support/principals';

/*
 * Issue 28 item 1 over HTTP (docs/guide/rules/maintenance.md): devices and rooms an open maintenance window
 * holds answer inMaintenance with the window and its end (JSON; the CSV keeps its columns), and
 * the window's history records its opening once an evaluation has run. The e2e server syncs a
 * simulated fleet (seed 42, 240 devices); every window here is deleted again, since other files
 * compare device answers whole.
 */
type Held = { id: string; comment: string; closesAt: string };
type Marked = { inMaintenance?: true; maintenance?: Held[] };
type Device = Marked & { devicesn: string; details: { region: string; location: string; room: string } };
type Room = Marked & { region: string; location: string; room: string };
type Window = { id: string; status: string; nextClosing: string | null };
type Event = { windowId: string; event: 'opened' | 'closed'; at: string; opening: { start: string; end: string }; recordedAt: string };
type Page<T> = { items: T[]; nextCursor: string | null };

const fleet = simulatedFleet({ seed: 42, devices: 240 });
const target = fleet[0]!;
const place = target.details;
const neighbour = fleet.find((d) => d.details.location === place.location && d.details.room !== place.room);
const pad = (n: number) => String(n).padStart(2, '0');
const windows: string[] = [];

/** A daily UTC window open now: from five minutes ago, for an hour. */
const openWindow = async (matchers: Record<string, string>, comment: string): Promise<Window> => {
  const started = new Date(Date.now() - 5 * 60_000);
  const res = await api<Window>('POST', '/maintenance', {
    body: { matchers, schedule: { days: ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'], start: `${pad(started.getUTCHours())}:${pad(started.getUTCMinutes())}`, durationMinutes: 60, timeZone: 'UTC' }, comment },
  });
  expect(res.status).toBe(201);
  windows.push(res.body.id);
  return res.body;
};
const device = async (devicesn: string) => (await api<Device>('POST', `/videoDevice/${devicesn}`, { body: {} })).body;
const inLocation = { regionName: place.region, locationName: place.location, roomName: 'all' };

let room: Window;
let watcherOnly: Window;
beforeAll(async () => {
  expect(await device(target.devicesn)).not.toHaveProperty('inMaintenance');
  room = await openWindow({ region: place.region, location: place.location, room: place.room }, 'e2e room patching');
  watcherOnly = await openWindow({ watcherId: 'e2e-no-such-watcher', region: place.region }, 'e2e watcher quiet');
  expect(room.status).toBe('active');
});
afterAll(async () => {
  for (const id of windows) await api('DELETE', `/maintenance/${id}`);
});

describe('devices and rooms in maintenance', () => {
  it('marks a device a window holds, by serial number, with the window and the end of its opening', async () => {
    expect(await device(target.devicesn)).toMatchObject({ inMaintenance: true, maintenance: [{ id: room.id, comment: 'e2e room patching', closesAt: room.nextClosing }] });
    if (neighbour) expect(await device(neighbour.devicesn)).not.toHaveProperty('inMaintenance');
  });

  it('marks the devices of the list and of its pages, and only those the window holds (a window naming a watcher holds none)', async () => {
    const list = (await api<Device[]>('POST', '/videoDevice/all/allDevices', { body: inLocation })).body;
    expect(list.length).toBeGreaterThan(0);
    for (const d of list) {
      if (d.details.room === place.room) expect(d.maintenance?.map((w) => w.id)).toEqual([room.id]);
      else expect(d).not.toHaveProperty('inMaintenance');
    }
    const page = (await api<Page<Device>>('POST', '/videoDevice/all/allDevices?limit=500', { body: inLocation })).body;
    expect(page.items.filter((d) => d.inMaintenance).map((d) => d.devicesn).sort()).toEqual(list.filter((d) => d.inMaintenance).map((d) => d.devicesn).sort());
    expect(list.some((d) => d.maintenance?.some((w) => w.id === watcherOnly.id))).toBe(false);
  });

  it('keeps the device CSV as it was: no column for maintenance', async () => {
    const res = await fetchCsv();
    expect(res.split('\r\n')[0]).toBe('devicesn,deviceid,region,location,room,connected,inCallStatus,model,vendor,connectionDetail,errorCodes,software,lastSeen,plannedMaintenance,staleSince');
    expect(res).not.toContain(room.id);
  });

  it('marks the rooms the board loads (POST /live/rooms) that a window of places holds', async () => {
    const rooms = (await api<Room[]>('POST', '/live/rooms', { body: inLocation })).body;
    const held = rooms.filter((r) => r.inMaintenance);
    expect(held.map((r) => [r.room, r.maintenance])).toEqual([[place.room, [{ id: room.id, comment: 'e2e room patching', closesAt: room.nextClosing }]]]);
    expect(rooms.length).toBeGreaterThanOrEqual(held.length);
  });
});

describe("a window's history over HTTP", () => {
  const evaluate = async () => {
    for (let tries = 0; tries < 20; tries++) {
      const res = await api('POST', '/alarms/evaluate');
      if (res.status === 200) return;
      expect(res.status).toBe(409);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };

  it('records the opening under way once, however many runs see it, newest first a page at a time', async () => {
    await evaluate();
    await evaluate();
    const res = await api<Page<Event>>('GET', `/maintenance/${room.id}/history`);
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(1);
    const [opened] = res.body.items;
    expect(opened).toMatchObject({ windowId: room.id, event: 'opened', opening: { end: room.nextClosing } });
    expect(opened!.at).toBe(opened!.opening.start);
    expect(Date.parse(opened!.at)).toBeLessThanOrEqual(Date.now());
    const first = (await api<Page<Event>>('GET', `/maintenance/${room.id}/history?limit=1`)).body;
    expect(first.items).toEqual(res.body.items);
    const rest = first.nextCursor ? (await api<Page<Event>>('GET', `/maintenance/${room.id}/history?limit=1&cursor=${first.nextCursor}`)).body : { items: [], nextCursor: null };
    expect(rest).toEqual({ items: [], nextCursor: null });
  });

  it('answers 404 for an unknown window and for one outside the caller scope, 422 for a cursor of another window', async () => {
    expect((await api('GET', '/maintenance/0190a0b0-0000-7000-8000-000000000000/history')).status).toBe(404);
    const admin = await adminToken();
    const operator = (await userWith(admin, await createRole(admin, ['fleet:read']), [{ region: `not-${place.region}` }])).token;
    expect((await api('GET', `/maintenance/${room.id}/history`, { token: operator })).status).toBe(404);
    expect((await api('GET', `/maintenance/${room.id}/history?cursor=bogus`)).status).toBe(422);
  });
});

const fetchCsv = async (): Promise<string> => {
  const res = await api<string>('POST', '/videoDevice/all/allDevices?format=csv&limit=500', { body: inLocation });
  expect(res.status).toBe(200);
  return res.body;
};
