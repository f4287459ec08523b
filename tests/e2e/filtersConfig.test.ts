import { describe, expect, it } from 'vitest';
import { api, expectDeletedOnce } from '../support/api';

type ListForm = { id: number; region: string; locations: { locationName: string }[] };
type ErrorBody = { message: string; errors?: { field: string; message: string }[] };

// Only this file and filters-routing write configurations, and e2e files run one after
// another, so tests here may reset and assert on the whole collection.
const fields = (res: { body: unknown }) => ((res.body as ErrorBody).errors ?? []).map((e) => e.field);
const nested = (regionName: string, locations: Record<string, string[]>) => ({
  region: {
    regionName,
    location: Object.entries(locations).map(([locationName, rooms]) => ({
      locationName,
      room: rooms.map((roomName) => ({ roomName })),
    })),
  },
});

describe('POST /filtersConfig/{id} and GET /filtersConfig/{id}', () => {
  it('stores the nested tree and answers it in list form', async () => {
    const res = await api<string>('POST', '/filtersConfig/10', { body: nested('EU', { Paris: ['P1', 'P2'], Lyon: [] }) });
    expect(res).toMatchObject({ status: 200, body: 'Filter configuration 10 upserted' });
    expect(await api('GET', '/filtersConfig/10')).toMatchObject({
      status: 200,
      body: { id: 10, region: 'EU', locations: [{ locationName: 'Paris' }, { locationName: 'Lyon' }] },
    });
  });

  it('replaces the stored tree on a second write', async () => {
    await api('POST', '/filtersConfig/11', { body: nested('EU', { Paris: ['P1'] }) });
    await api('POST', '/filtersConfig/11', { body: nested('US', { NYC: ['N1'] }) });
    expect((await api('GET', '/filtersConfig/11')).body).toEqual({ id: 11, region: 'US', locations: [{ locationName: 'NYC' }] });
  });

  it('round-trips unicode names', async () => {
    await api('POST', '/filtersConfig/12', { body: nested('Ásia 亚洲', { 'Tōkyō 東京': ['会議室 🎥'] }) });
    expect((await api('GET', '/filtersConfig/12')).body).toEqual({ id: 12, region: 'Ásia 亚洲', locations: [{ locationName: 'Tōkyō 東京' }] });
  });

  it('answers 404 with the string "Filter configuration not found" for an unknown id', async () => {
    expect(await api('GET', '/filtersConfig/987654321')).toMatchObject({ status: 404, body: 'Filter configuration not found' });
  });

  it('answers 400 naming the id for a non-integer id', async () => {
    const res = await api<ErrorBody>('GET', '/filtersConfig/abc');
    expect(res.status).toBe(400);
    expect(fields(res)).toEqual(['pathParameters.id']);
  });

  it.each([
    ['the list form', { id: 13, region: 'EU', locations: [] }, 'body.region'],
    ['a region as a string', { region: 'EU' }, 'body.region'],
    ['a missing regionName', { region: { location: [] } }, 'body.region.regionName'],
    ['a location without rooms', { region: { regionName: 'EU', location: [{ locationName: 'P' }] } }, 'body.region.location[0].room'],
    ['an empty room name', nested('EU', { P: [''] }), 'body.region.location[0].room[0].roomName'],
    ['a repeated room', nested('EU', { P: ['R', 'R'] }), 'body.region.location[0].room'],
    ['a repeated location', { region: { regionName: 'EU', location: [{ locationName: 'P', room: [] }, { locationName: 'P', room: [] }] } }, 'body.region.location[1].locationName'],
  ])('answers 400 naming the field for %s and writes nothing', async (_case, body, field) => {
    const res = await api<ErrorBody>('POST', '/filtersConfig/13', { body });
    expect(res.status).toBe(400);
    expect(fields(res)).toContain(field);
    expect((await api('GET', '/filtersConfig/13')).status).toBe(404);
  });
});

describe('POST /filtersConfig and GET /filtersConfig', () => {
  it('upserts a list and lists every configuration in list form by id', async () => {
    await api('DELETE', '/filtersConfig', { body: [] });
    const body: ListForm[] = [
      { id: 22, region: 'US', locations: [{ locationName: 'NYC' }] },
      { id: 21, region: 'EU', locations: [{ locationName: 'Paris' }, { locationName: 'Lyon' }] },
    ];
    const res = await api<string>('POST', '/filtersConfig', { body });
    expect(res).toMatchObject({ status: 200, body: 'Upserted 2 filter configurations' });
    expect(await api('GET', '/filtersConfig')).toMatchObject({ status: 200, body: [body[1], body[0]] });
  });

  it('a list-form update keeps the rooms of locations that remain', async () => {
    await api('POST', '/filtersConfig/23', { body: nested('EU', { Paris: ['P1'], Lyon: ['L1'] }) });
    await api('POST', '/filtersConfig', { body: [{ id: 23, region: 'EU', locations: [{ locationName: 'Paris' }, { locationName: 'Nice' }] }] });
    expect((await api('GET', '/filtersConfig/23')).body).toEqual({
      id: 23,
      region: 'EU',
      locations: [{ locationName: 'Paris' }, { locationName: 'Nice' }],
    });
  });

  it.each([
    ['an object instead of an array', { id: 1, region: 'a', locations: [] }, 'body'],
    ['an empty array', [], 'body'],
    ['a record without locations', [{ id: 1, region: 'a' }], 'body[0].locations'],
    ['a location with rooms', [{ id: 1, region: 'a', locations: [{ locationName: 'x', room: [] }] }], 'body[0].locations[0].room'],
    ['a fractional id', [{ id: 1.5, region: 'a', locations: [] }], 'body[0].id'],
    ['an empty region', [{ id: 1, region: '', locations: [] }], 'body[0].region'],
    ['a repeated id', [{ id: 24, region: 'a', locations: [] }, { id: 24, region: 'b', locations: [] }], 'body[1].id'],
    ['a repeated location', [{ id: 24, region: 'a', locations: [{ locationName: 'x' }, { locationName: 'x' }] }], 'body[0].locations[1].locationName'],
  ])('answers 400 naming the field for %s', async (_case, body, field) => {
    const res = await api<ErrorBody>('POST', '/filtersConfig', { body });
    expect(res.status).toBe(400);
    expect(fields(res)).toContain(field);
  });
});

describe('DELETE /filtersConfig (keep-list)', () => {
  it('deletes every configuration whose id is not listed, and repeating it changes nothing', async () => {
    await api('DELETE', '/filtersConfig', { body: [] });
    await api('POST', '/filtersConfig', { body: [1, 2, 3, 4].map((id) => ({ id, region: `r${id}`, locations: [] })) });

    const res = await api<string>('DELETE', '/filtersConfig', { body: [1, 3] });
    expect(res).toMatchObject({ status: 200, body: 'Deleted 2 filter configurations not in the list' });
    expect((await api<ListForm[]>('GET', '/filtersConfig')).body.map((c) => c.id)).toEqual([1, 3]);

    expect((await api('DELETE', '/filtersConfig', { body: [1, 3] })).body).toBe('Deleted 0 filter configurations not in the list');
    expect((await api<ListForm[]>('GET', '/filtersConfig')).body.map((c) => c.id)).toEqual([1, 3]);
  });

  it('deletes everything for an empty array', async () => {
    await api('POST', '/filtersConfig', { body: [{ id: 5, region: 'r', locations: [] }] });
    expect((await api('DELETE', '/filtersConfig', { body: [] })).status).toBe(200);
    expect((await api('GET', '/filtersConfig')).body).toEqual([]);
    expect((await api('GET', '/filtersConfig/count')).body).toBe(0);
  });

  it('answers 400 naming the item for a non-integer id and deletes nothing', async () => {
    await api('POST', '/filtersConfig', { body: [{ id: 6, region: 'r', locations: [] }] });
    const res = await api<ErrorBody>('DELETE', '/filtersConfig', { body: ['6'] });
    expect(res.status).toBe(400);
    expect(fields(res)).toContain('body[0]');
    expect((await api('GET', '/filtersConfig/6')).status).toBe(200);
  });
});

describe('DELETE /filtersConfig/{id}', () => {
  it('deletes the configuration, then answers 404 "Filter configuration not found"', async () => {
    await api('POST', '/filtersConfig/30', { body: nested('EU', { Paris: [] }) });
    await expectDeletedOnce('/filtersConfig/30', 'Filter configuration 30 deleted', 'Filter configuration not found');
  });

  it('answers 400 for a non-integer id', async () => {
    expect((await api('DELETE', '/filtersConfig/1e3')).status).toBe(400);
  });
});

describe('GET /filtersConfig/count', () => {
  it('answers the number of configurations as a bare integer matching the list', async () => {
    await api('POST', '/filtersConfig', { body: [{ id: 40, region: 'a', locations: [] }, { id: 41, region: 'b', locations: [] }] });
    const count = await api<number>('GET', '/filtersConfig/count');
    expect(count.status).toBe(200);
    expect(Number.isInteger(count.body)).toBe(true);
    expect(count.body).toBe((await api<ListForm[]>('GET', '/filtersConfig')).body.length);
  });
});
