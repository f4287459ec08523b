import { describe, expect, it } from 'vitest';
import { uniqueSorted } from '#lib/shared/names';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import { typedApi } from '../support/api';

// Through the typed client (client/index.ts): paths, bodies and answers checked against docs/openapi.json.
const api = typedApi();

// Same still fleet the e2e server synced (tests/support/offline.global.ts).
const fleet = simulatedFleet({ seed: 42, devices: 240 });
const namesOf = (kind: 'region' | 'location' | 'room', where: (d: (typeof fleet)[number]['details']) => boolean = () => true) =>
  uniqueSorted(fleet.map((d) => d.details).filter(where).map((p) => p[kind]));

describe('POST /filters/region|location|room, shape A (names)', () => {
  it('lists every region, sorted and unique, for an empty body', async () => {
    const { data, response } = await api.POST('/filters/region', { body: {} });
    expect(response.status).toBe(200);
    expect(data).toEqual(namesOf('region'));
  });

  it('lists every room name without a body', async () => {
    expect((await api.POST('/filters/room', {})).data).toEqual(namesOf('room'));
  });

  it('narrows locations by region', async () => {
    const { data } = await api.POST('/filters/location', { body: { regionName: 'EMEA' } });
    expect(data).toEqual(namesOf('location', (p) => p.region === 'EMEA'));
    expect(data).toEqual(['Berlin', 'London', 'Madrid']);
  });

  it('narrows rooms by location and treats all as no narrowing', async () => {
    const { data } = await api.POST('/filters/room', { body: { regionName: 'all', locationName: 'Tokyo', roomName: 'all' } });
    expect(data).toEqual(namesOf('room', (p) => p.location === 'Tokyo'));
  });

  it('narrows regions by room and location', async () => {
    const { data } = await api.POST('/filters/region', { body: { locationName: 'Sydney', roomName: 'Room 1' } });
    expect(data).toEqual(['APAC']);
  });

  it('answers an empty list for a name no device has', async () => {
    expect((await api.POST('/filters/location', { body: { regionName: 'Atlantis' } })).data).toEqual([]);
  });
});

describe('POST /filters/region|location|room, shape B (count)', () => {
  // DESIGN D1/D11: shape B counts the things (a room is region + location + room), not their names
  const countOf = (key: (p: (typeof fleet)[number]['details']) => string, where: (p: (typeof fleet)[number]['details']) => boolean = () => true) =>
    new Set(fleet.map((d) => d.details).filter(where).map(key)).size;
  const room = (p: (typeof fleet)[number]['details']) => `${p.region}/${p.location}/${p.room}`;
  const location = (p: (typeof fleet)[number]['details']) => `${p.region}/${p.location}`;

  it.each([
    ['region', {}, namesOf('region').length],
    ['location', { regionName: 'APAC' }, countOf(location, (p) => p.region === 'APAC')],
    ['room', { locationName: 'London' }, countOf(room, (p) => p.location === 'London')],
    ['room', { regionName: 'all', locationName: 'all', roomName: 'all' }, countOf(room)],
    ['room', { roomName: 'Room 1' }, countOf(room, (p) => p.room === 'Room 1')],
    ['location', {}, countOf(location)],
  ] as const)('/filters/%s with filters %j answers the count of things in scope as an integer', async (kind, filters, count) => {
    const { data, response } = await api.POST(`/filters/${kind}`, { body: { filters } });
    expect(response.status).toBe(200);
    expect(data).toBe(count);
  });

  it('counts rooms, not room names: all/all/all equals numOfRooms', async () => {
    const all = { regionName: 'all', locationName: 'all', roomName: 'all' };
    const [count, rooms] = await Promise.all([
      api.POST('/filters/room', { body: { filters: all } }),
      api.POST('/videoDevice/room/numOfRooms', { body: all }),
    ]);
    expect(count.data).toBe(rooms.data?.totalRooms);
    expect(count.data).toBeGreaterThan(namesOf('room').length);
  });
});

describe('lookup bodies are validated with 400', () => {
  it.each([
    ['an unknown field', { zone: 'EMEA' }, 'body.zone'],
    ['an empty name', { regionName: '' }, 'body.regionName'],
    ['a non-string name', { roomName: 5 }, 'body.roomName'],
    ['a name longer than 256', { locationName: 'x'.repeat(257) }, 'body.locationName'],
    ['filters next to flat fields', { filters: {}, regionName: 'EMEA' }, 'body'],
    ['an unknown field inside filters', { filters: { other: 'x' } }, 'body.filters.other'],
  ])('answers 400 for %s', async (_case, body, field) => {
    // invalid on purpose: the typed client would refuse it at compile time
    const { error, response } = await api.POST('/filters/room', { body: body as never });
    expect(response.status).toBe(400);
    expect(error && 'errors' in error ? error.errors?.map((e) => e.field) : []).toContain(field);
  });
});

describe('GET /filters/location/byzone/{zone}', () => {
  it('answers the number of locations in the region', async () => {
    const { data, response } = await api.GET('/filters/location/byzone/{zone}', { params: { path: { zone: 'LATAM' } } });
    expect(response.status).toBe(200);
    expect(data).toBe(namesOf('location', (p) => p.region === 'LATAM').length);
  });

  it('answers 0 for an unknown region', async () => {
    expect((await api.GET('/filters/location/byzone/{zone}', { params: { path: { zone: 'Atlantis' } } })).data).toBe(0);
  });
});

describe('GET /filters/videodevices', () => {
  it('answers the unique serial numbers, sorted', async () => {
    const { data, response } = await api.GET('/filters/videodevices');
    expect(response.status).toBe(200);
    expect(data).toEqual(uniqueSorted(fleet.map((d) => d.devicesn)));
  });
});
