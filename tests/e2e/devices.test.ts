import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL, inFilterScope, filterScopeOf, type DeviceFilter } from '#lib/devices/deviceScope';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import { toDevice, type Device } from '#lib/devices/types';
import { api } from '../support/api';

// The e2e server syncs a still simulated fleet (tests/support/offline.global.ts): 240 devices, seed 42.
// synced through DEVICE_PROVIDER=simulated: each device carries its vendor
const fleet = simulatedFleet({ seed: 42, devices: 240 }).map((d) => toDevice({ ...d, vendor: 'simulated' }));
const names = (pick: (d: Device) => string) => [...new Set(fleet.map(pick))];
const everywhere: DeviceFilter = { regionName: ALL, locationName: ALL, roomName: ALL };
const expectedIn = (filter: DeviceFilter) => fleet.filter((d) => inFilterScope(filterScopeOf(filter), d.details));
const bySn = (a: Device, b: Device) => (a.devicesn < b.devicesn ? -1 : 1);
type ErrorBody = { message: string; errors?: { field: string; message: string }[] };

const post = <T>(path: string, body?: unknown) => api<T>('POST', `/videoDevice/${path}`, { body });
/**
 * Rooms of the scope holding an open alarm. Alarms open only when an evaluation runs (e2e:
 * POST /alarms/evaluate in the alarms file), but other files leave active watchers behind, so
 * room statuses depend on file order: counts are checked against the open alarms instead.
 */
const alarmedRooms = async (filter: DeviceFilter): Promise<number> => {
  const open = (await api<Device['details'][]>('GET', '/alarms')).body;
  return new Set(open.filter((a) => inFilterScope(filterScopeOf(filter), a)).map((a) => JSON.stringify([a.region, a.location, a.room]))).size;
};

const FILTER_ENDPOINTS = [
  'all/allDevices',
  'all/totalDevices',
  'all/devicesConnected',
  'all/numOfDevicesByRoom',
  'room/numOfRooms',
  'room/numDevicesConnected',
  'room/roomStatusCount',
];

describe('device counts over the whole fleet', () => {
  it('POST all/allDevices answers every device as a spec Device record', async () => {
    const res = await post<Device[]>('all/allDevices', everywhere);
    expect(res.status).toBe(200);
    expect([...res.body].sort(bySn)).toEqual([...fleet].sort(bySn));
    expect(res.body.every((d) => d.deviceconnected === d.status.connected)).toBe(true);
  });

  it('POST all/totalDevices and all/devicesConnected answer one-integer arrays', async () => {
    expect((await post('all/totalDevices', everywhere)).body).toEqual([240]);
    expect((await post('all/devicesConnected', everywhere)).body).toEqual([fleet.filter((d) => d.deviceconnected).length]);
  });

  it('POST room/numOfRooms counts the rooms holding devices', async () => {
    const rooms = new Set(fleet.map((d) => JSON.stringify(d.details)));
    expect((await post('room/numOfRooms', everywhere)).body).toEqual({ totalRooms: rooms.size });
  });

  it('POST room/numDevicesConnected answers total, online and offline', async () => {
    const online = fleet.filter((d) => d.deviceconnected).length;
    expect((await post('room/numDevicesConnected', everywhere)).body).toEqual({ total: 240, online, offline: 240 - online });
  });

  it('POST room/roomStatusCount answers every room without an open alarm OK, the five levels summing to TotalRooms', async () => {
    const res = await post<Record<string, number>>('room/roomStatusCount', everywhere);
    const { TotalRooms, CriticalStatus, MajorStatus, MinorStatus, InfoStatus, OKStatus } = res.body;
    expect(TotalRooms).toBe(60);
    expect(OKStatus).toBe(60 - (await alarmedRooms(everywhere)));
    expect(CriticalStatus! + MajorStatus! + MinorStatus! + InfoStatus! + OKStatus!).toBe(60);
  });

  it('POST all/numOfDevicesByRoom answers one count item per room of the scope', async () => {
    const filter = { regionName: 'EMEA', locationName: 'London', roomName: 'Room 2' };
    const inRoom = expectedIn(filter);
    const res = await post('all/numOfDevicesByRoom', filter);
    const online = inRoom.filter((d) => d.deviceconnected).length;
    expect(res.body).toEqual([{ name: 'Room 2', deviceCount: inRoom.length, onlineDeviceCount: online, offlineDeviceCount: inRoom.length - online }]);
  });

  it('answers zero counts for a scope without devices', async () => {
    const filter = { regionName: 'Atlantis', locationName: ALL, roomName: ALL };
    expect((await post('all/totalDevices', filter)).body).toEqual([0]);
    expect((await post('all/allDevices', filter)).body).toEqual([]);
    expect((await post('room/numOfRooms', filter)).body).toEqual({ totalRooms: 0 });
  });
});

describe('device counts agree with the device list for any filter', () => {
  const pick = (values: string[]) => fc.constantFrom(ALL, ...values);
  const filters = fc.record({
    regionName: pick(names((d) => d.details.region)),
    locationName: pick(names((d) => d.details.location)),
    roomName: pick(names((d) => d.details.room)),
  });

  it('every count endpoint matches allDevices, and allDevices matches the fleet', async () => {
    await fc.assert(
      fc.asyncProperty(filters, async (filter) => {
        const [list, total, connected, byRoom, rooms, summary, status] = await Promise.all(
          FILTER_ENDPOINTS.map((path) => post<unknown>(path, filter).then((r) => r.body)),
        );
        const devices = list as Device[];
        const online = devices.filter((d) => d.deviceconnected).length;
        const roomCount = new Set(devices.map((d) => JSON.stringify(d.details))).size;
        const perRoom = byRoom as { deviceCount: number; onlineDeviceCount: number; offlineDeviceCount: number }[];
        expect([...devices].sort(bySn)).toEqual(expectedIn(filter).sort(bySn));
        expect(total).toEqual([devices.length]);
        expect(connected).toEqual([online]);
        expect(summary).toEqual({ total: devices.length, online, offline: devices.length - online });
        expect(rooms).toEqual({ totalRooms: roomCount });
        expect(perRoom).toHaveLength(roomCount);
        expect(perRoom.reduce((n, r) => n + r.deviceCount, 0)).toBe(devices.length);
        expect(perRoom.reduce((n, r) => n + r.onlineDeviceCount, 0)).toBe(online);
        expect(perRoom.every((r) => r.deviceCount === r.onlineDeviceCount + r.offlineDeviceCount)).toBe(true);
        expect(status).toMatchObject({ TotalRooms: roomCount, OKStatus: roomCount - (await alarmedRooms(filter)) });
      }),
      { seed: 20240611, numRuns: 50 },
    );
  });
});

describe('device queries refuse incomplete filters with 422', () => {
  const cases = FILTER_ENDPOINTS.flatMap((path) => [
    [path, 'regionName missing', { locationName: ALL, roomName: ALL }, 'body.regionName'],
    [path, 'locationName missing', { regionName: ALL, roomName: ALL }, 'body.locationName'],
    [path, 'roomName missing', { regionName: ALL, locationName: ALL }, 'body.roomName'],
    [path, 'an empty roomName', { ...everywhere, roomName: '' }, 'body.roomName'],
    [path, 'no body at all', undefined, 'body'],
  ] as const);

  it.each(cases)('POST %s answers 422 for %s', async (path, _case, body, field) => {
    const res = await post<ErrorBody>(path, body);
    expect(res.status).toBe(422);
    expect(res.body.errors?.map((e) => e.field)).toContain(field);
  });
});

describe('POST /videoDevice/{devicesn}', () => {
  const known = fleet[17]!;

  it('answers the device for an empty-object body', async () => {
    const res = await post<Device>(known.devicesn, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual(known);
  });

  it('answers the device without a body', async () => {
    expect((await post<Device>(known.devicesn)).body).toEqual(known);
  });

  it('answers 404 with a message for an unknown serial number', async () => {
    const res = await post<ErrorBody>('NO-SUCH-SN', {});
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/NO-SUCH-SN/);
  });

  it('answers 422 for a body with fields', async () => {
    const res = await post<ErrorBody>(known.devicesn, { regionName: 'all' });
    expect(res.status).toBe(422);
  });
});

describe('POST /videoDevice/refresh/{devicesn}', () => {
  it('answers the device with refreshInfo.lastRefresh as ISO 8601', async () => {
    const known = fleet[3]!;
    const before = Date.now();
    const res = await post<Device & { refreshInfo: { lastRefresh: string } }>(`refresh/${known.devicesn}`, {});
    expect(res.status).toBe(200);
    const { refreshInfo, ...device } = res.body;
    expect(device).toEqual(known);
    expect(refreshInfo.lastRefresh).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(Date.parse(refreshInfo.lastRefresh)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('answers 404 for an unknown serial number', async () => {
    expect((await post(`refresh/NO-SUCH-SN`, {})).status).toBe(404);
  });
});

describe('POST /videoDevice/all/allDevices pages', () => {
  it('walks every device once with limit and cursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=50${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await post<{ items: Device[]; nextCursor: string | null }>(`all/allDevices${query}`, everywhere);
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(50);
      seen.push(...res.body.items.map((d) => d.devicesn));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual(fleet.map((d) => d.devicesn).sort());
  });

  it.each([
    ['limit 0', '?limit=0', 'queryStringParameters.limit'],
    ['limit 1001', '?limit=1001', 'queryStringParameters.limit'],
    ['a forged cursor', '?cursor=abc', 'queryStringParameters.cursor'],
  ])('answers 422 for %s', async (_case, query, field) => {
    const res = await post<ErrorBody>(`all/allDevices${query}`, everywhere);
    expect(res.status).toBe(422);
    expect(res.body.errors?.map((e) => e.field)).toContain(field);
  });
});
