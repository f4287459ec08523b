import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localTableName, storeEnv } from '../../scripts/local/env';
import { stillFleetEnv, type Instance } from '../../scripts/local/instance';
import { plainCallerOf } from '../support/api';
import { ownInstance } from '../support/instance';

/*
 * Availability that matches how rooms are used (issue 28 item 4) over HTTP: an `npm start` with
 * BUSINESS_HOURS set, a device's connectivity changes on a past Tuesday written into its store
 * (a 40 s blip at 03:00, a 1 h outage at 10:00), then POST /videoDevice/room/availability.
 */
const KEY = 'availability-business-e2e-api-key';
let instance: Instance;

interface Room {
  region: string;
  location: string;
  room: string;
  availability: number;
  deviceCount: number;
  outageMinutes?: number;
  unhealthyDays?: number;
}
interface Answer {
  from: string;
  to: string;
  hours?: string;
  rooms: Room[];
  overall: number;
}
interface Device {
  devicesn: string;
  status: { connected: boolean };
  details: { region: string; location: string; room: string };
}

const call = plainCallerOf(() => instance.url, KEY);

const DAY = '2026-11-17'; // a Tuesday
const at = (time: string) => `${DAY}T${time}.000Z`;
const WINDOW = { from: at('00:00:00'), to: '2026-11-18T00:00:00.000Z' };
let place: Device['details'];
let devicesInRoom = 0;

beforeAll(async () => {
  instance = await ownInstance('.esbuild-e2e-availability', { ...stillFleetEnv, API_KEY: KEY, SEED_DEVICES: '30', PASSWORD_SCRYPT_LOG_N: '14', BUSINESS_HOURS: 'Mon-Fri 08:00-18:00', BUSINESS_TIME_ZONE: 'UTC' });
  // a room whose devices are all connected now: the seeded device's changes are its only outage
  const fleet = (await call<Device[]>('POST', '/videoDevice/all/allDevices', { regionName: 'all', locationName: 'all', roomName: 'all' })).body;
  const key = (d: Device) => `${d.details.region}/${d.details.location}/${d.details.room}`;
  const rooms = new Map<string, Device[]>();
  for (const d of fleet) rooms.set(key(d), [...(rooms.get(key(d)) ?? []), d]);
  const [chosen] = [...rooms.values()].filter((devices) => devices.every((d) => d.status.connected)).sort((a, b) => a.length - b.length);
  place = chosen![0]!.details;
  devicesInRoom = chosen!.length;
  // the store the instance uses, written as its sync would (lib/devices/repository/connectivity)
  Object.assign(process.env, storeEnv(instance.storeEndpoint), { TABLE_NAME: localTableName() });
  const connectivity = await import('#lib/devices/repository/connectivity');
  const { historyExpiry } = await import('#lib/shared/retention');
  const sn = chosen![0]!.devicesn;
  const flips: [string, boolean][] = [
    [at('00:00:00'), true],
    [at('03:00:00'), false],
    [at('03:00:40'), true],
    [at('10:00:00'), false],
    [at('11:00:00'), true],
  ];
  await connectivity.record(
    chosen!.flatMap((d) => (d.devicesn === sn ? flips : [[at('00:00:00'), true] as [string, boolean]]).map(([when, connected]) => ({ devicesn: d.devicesn, at: when, connected, inCallStatus: 'NONE' }))),
    historyExpiry,
  );
}, 400_000);

afterAll(async () => {
  await instance?.stop();
});

const body = () => ({ regionName: place.region, locationName: place.location, roomName: place.room, ...WINDOW });

describe('POST /videoDevice/room/availability with BUSINESS_HOURS', () => {
  it('counts business hours by default: the 1 h day outage counts, the 40 s night blip does not, and the day is unhealthy', async () => {
    const res = await call<Answer>('POST', '/videoDevice/room/availability', { ...body(), unhealthyDays: 30 });
    expect(res.status).toBe(200);
    const expected = Math.round((1 - 60 / (600 * devicesInRoom)) * 10_000) / 10_000;
    expect(res.body).toEqual({
      ...WINDOW,
      hours: 'business',
      rooms: [{ ...place, availability: expected, deviceCount: devicesInRoom, outageMinutes: 60, unhealthyDays: 1 }],
      overall: expected,
    });
  });

  it('answers 24 h on request: from the rollups as before, or from the changes with unhealthy days', async () => {
    const plain = await call<Answer>('POST', '/videoDevice/room/availability', { ...body(), hours: '24h' });
    expect(plain.status).toBe(200);
    expect(plain.body.hours).toBeUndefined();
    // the rollups began when the instance first synced, after the window: the room is left out, as before
    expect(plain.body).toEqual({ ...WINDOW, rooms: [], overall: 1 });
    const measured = await call<Answer>('POST', '/videoDevice/room/availability', { ...body(), hours: '24h', unhealthyDays: 90 });
    expect(measured.body.hours).toBe('24h');
    expect(measured.body.rooms).toEqual([
      { ...place, availability: Math.round((1 - 60 / (1440 * devicesInRoom)) * 10_000) / 10_000, deviceCount: devicesInRoom, outageMinutes: 60, unhealthyDays: 1 },
    ]);
  });

  it('answers 422 naming the field for hours or unhealthyDays it does not know', async () => {
    for (const extra of [{ hours: 'office' }, { unhealthyDays: 7 }]) {
      const res = await call<{ message: string }>('POST', '/videoDevice/room/availability', { ...body(), ...extra });
      expect(res.status, JSON.stringify(extra)).toBe(422);
      expect(JSON.stringify(res.body)).toContain(`body.${Object.keys(extra)[0]}`);
    }
  });
});

/*
 * Location profiles (issue 28 item 4; docs/guide/rules/config.md and docs/guide/rules/reports.md) over HTTP, on the same instance: the
 * chosen room's location gets a profile, then loses it (the tests above ran without one).
 */
interface Profile {
  region: string;
  location: string;
  businessHours?: string;
  timeZone: string;
  rooms: { room: string; businessHours?: string; timeZone?: string }[];
  updatedBy: string;
  updatedAt: string;
}
type Problem = { message: string; errors?: { field: string }[] };
const profilePath = (region: string, location: string) => `/locations/${encodeURIComponent(region)}/${encodeURIComponent(location)}/profile`;

describe('location profiles over HTTP', () => {
  it('creates, reads, lists, replaces and deletes a profile', async () => {
    const path = profilePath('E2E#region', 'HQ/1');
    const put = await call<Profile>('PUT', path, { timeZone: 'europe/berlin', businessHours: 'Mon-Fri 08:00-18:00', rooms: [{ room: 'Lab', businessHours: '24h' }] });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      region: 'E2E#region',
      location: 'HQ/1',
      timeZone: 'Europe/Berlin',
      businessHours: 'Mon-Fri 08:00-18:00',
      rooms: [{ room: 'Lab', businessHours: '24h' }],
      updatedBy: 'api-key',
      updatedAt: expect.any(String),
    });
    expect((await call<Profile>('GET', path)).body).toEqual(put.body);
    const listed = await call<{ items: Profile[]; nextCursor: string | null }>('GET', '/locations/profiles?limit=1000');
    expect(listed.status).toBe(200);
    expect(listed.body.items).toContainEqual(put.body);
    const replaced = await call<Profile>('PUT', path, { timeZone: 'UTC' });
    expect(replaced.body).toMatchObject({ timeZone: 'UTC', rooms: [] });
    expect(replaced.body.businessHours).toBeUndefined();
    expect((await call('DELETE', path)).status).toBe(200);
    expect((await call('GET', path)).status).toBe(404);
    expect((await call('DELETE', path)).status).toBe(404);
  });

  it('answers 422 naming each field it cannot store, and hostile names with a 4xx', async () => {
    const path = profilePath('E2E', 'Bad');
    const bad = await call<Problem>('PUT', path, { timeZone: 'Mars/Olympus', businessHours: 'Mon-Fri 18:00-08:00', rooms: [{ room: 'A' }] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors?.map((e) => e.field)).toEqual(['body.timeZone', 'body.businessHours', 'body.rooms[0]']);
    const unknownField = await call<Problem>('PUT', path, { timeZone: 'UTC', hours: 'office' });
    expect(unknownField.status).toBe(422);
    expect((await call<Problem>('PUT', path, {})).status).toBe(422);
    for (const [label, segment] of [
      ['a lone surrogate', '%ED%A0%80'],
      ['a control character', 'a%07b'],
      ['a name too long for a key', encodeURIComponent('é'.repeat(200))],
      ['a 2,000-character name', 'x'.repeat(2000)],
    ] as const) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const res = await call<Problem>(method, `/locations/${segment}/${segment}/profile`, method === 'PUT' ? { timeZone: 'UTC' } : undefined);
        expect(res.status, `${method} ${label}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${method} ${label}`).toBeLessThan(500);
      }
    }
  });

  it("counts the room in its location's zone: the fleet's office hours on Tokyo's clock miss the 10:00 UTC outage", async () => {
    const path = profilePath(place.region, place.location);
    expect((await call('PUT', path, { timeZone: 'Asia/Tokyo' })).status).toBe(200);
    try {
      // 10:00-11:00 UTC is 19:00-20:00 in Tokyo, after its office hours; the 40 s blip at 12:00 there is too short
      const res = await call<Answer>('POST', '/videoDevice/room/availability', { ...body(), unhealthyDays: 30 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...WINDOW,
        hours: 'business',
        rooms: [{ ...place, availability: 1, deviceCount: devicesInRoom, outageMinutes: 0, unhealthyDays: 0, hours: 'business', timeZone: 'Asia/Tokyo' }],
        overall: 1,
      });
      // a room override back on UTC's clock counts it again
      await call('PUT', path, { timeZone: 'Asia/Tokyo', rooms: [{ room: place.room, timeZone: 'UTC' }] });
      const overridden = await call<Answer>('POST', '/videoDevice/room/availability', body());
      expect(overridden.body.rooms).toEqual([
        { ...place, availability: Math.round((1 - 60 / (600 * devicesInRoom)) * 10_000) / 10_000, deviceCount: devicesInRoom, outageMinutes: 60, hours: 'business', timeZone: 'UTC' },
      ]);
    } finally {
      await call('DELETE', path);
    }
  });
});
