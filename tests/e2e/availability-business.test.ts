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
  // the store the instance uses, written as its sync would (lib/db/connectivity)
  Object.assign(process.env, storeEnv(instance.storeEndpoint), { TABLE_NAME: localTableName() });
  const connectivity = await import('#lib/db/connectivity');
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
