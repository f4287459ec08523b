import { describe, expect, it } from 'vitest';
import { INTERVAL_FIELDS } from '#lib/config/intervals/types';
import { api } from '../support/api';

type Record = { id: number } & { [field: string]: number };
type ErrorBody = { message: string; errors?: { field: string; message: string }[] };

const full = (base = 30) => Object.fromEntries(INTERVAL_FIELDS.map((f, i) => [f, base + i]));
const create = async (base?: number) => {
  const res = await api<Record>('POST', '/intervals', { body: full(base) });
  expect(res.status).toBe(200);
  return res.body;
};

describe('POST /intervals/createTable', () => {
  it('answers 200 and is safe to repeat', async () => {
    const first = await api<string>('POST', '/intervals/createTable');
    const second = await api<string>('POST', '/intervals/createTable');
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toMatch(/already exists/);
  });
});

describe('POST /intervals', () => {
  it('creates a record with all nine fields and an integer id', async () => {
    const res = await api<Record>('POST', '/intervals', { body: full(60) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Number.isInteger(res.body.id)).toBe(true);
    expect(res.body).toEqual({ id: res.body.id, ...full(60) });
  });

  it('answers 422 for the four-field example body, naming the missing fields', async () => {
    const body = { intervalFeedbackTestApi: 60, intervalDeviceStatus: 60, intervalDeviceStatusEspera: 60, intervalAllDevices: 60 };
    const res = await api<ErrorBody>('POST', '/intervals', { body });
    expect(res.status).toBe(422);
    expect(res.body.errors?.map((e) => e.field)).toEqual([
      'body.intervalDeviceWatchers',
      'body.intervalDeviceWatchersTimeout',
      'body.intervalRefreshToken',
      'body.intervalDeviceInternalConsult',
      'body.intervalDeviceSyncInfo',
    ]);
  });

  it.each([
    ['a string value', { ...full(), intervalDeviceStatus: '30' }, 'body.intervalDeviceStatus'],
    ['a fractional value', { ...full(), intervalAllDevices: 1.5 }, 'body.intervalAllDevices'],
    ['zero', { ...full(), intervalRefreshToken: 0 }, 'body.intervalRefreshToken'],
    ['a negative value', { ...full(), intervalDeviceSyncInfo: -5 }, 'body.intervalDeviceSyncInfo'],
    ['an unknown field', { ...full(), id: 5 }, 'body.id'],
  ])('answers 422 for %s', async (_case, body, field) => {
    const res = await api<ErrorBody>('POST', '/intervals', { body });
    expect(res.status).toBe(422);
    expect(res.body.errors?.map((e) => e.field)).toContain(field);
  });

  it.each([
    ['malformed JSON', '{"intervalDeviceStatus":'],
    ['a JSON array', '[1,2]'],
    ['a JSON number', '42'],
  ])('answers 422 JSON for %s', async (_case, raw) => {
    const res = await api<ErrorBody>('POST', '/intervals', { raw, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(422);
    expect(typeof res.body.message).toBe('string');
  });

  it('answers 415 JSON for a non-JSON content type', async () => {
    const res = await api<ErrorBody>('POST', '/intervals', { raw: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
    expect(res.body.message).toMatch(/application\/json/);
  });
});

describe('GET /intervals', () => {
  it('lists created records in id order', async () => {
    const a = await create(1);
    const b = await create(2);
    const res = await api<Record[]>('GET', '/intervals');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expect.arrayContaining([a, b]));
    const ids = res.body.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
  });
});

describe('GET /intervals/{id}', () => {
  it('answers the record', async () => {
    const created = await create();
    expect(await api('GET', `/intervals/${created.id}`)).toMatchObject({ status: 200, body: created });
  });

  it('answers 404 for an unknown id', async () => {
    const res = await api<ErrorBody>('GET', '/intervals/999999999');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Interval 999999999 not found');
  });

  it.each(['abc', '1.5', '-1', '0'])('answers 422 for the id %s', async (id) => {
    const res = await api<ErrorBody>('GET', `/intervals/${id}`);
    expect(res.status).toBe(422);
    expect(res.body.errors?.[0]?.field).toBe('pathParameters.id');
  });
});

describe('PUT /intervals/{id}', () => {
  it('changes only the fields sent', async () => {
    const created = await create(100);
    const res = await api<Record>('PUT', `/intervals/${created.id}`, { body: { intervalDeviceWatchers: 5 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...created, intervalDeviceWatchers: 5 });
    expect((await api('GET', `/intervals/${created.id}`)).body).toEqual(res.body);
  });

  it('answers 404 for an unknown id and creates nothing', async () => {
    const res = await api('PUT', '/intervals/999999998', { body: { intervalDeviceWatchers: 5 } });
    expect(res.status).toBe(404);
    expect((await api('GET', '/intervals/999999998')).status).toBe(404);
  });

  it.each([
    ['an empty body', {}],
    ['a string value', { intervalDeviceWatchers: 'soon' }],
    ['an unknown field', { intervalNope: 5 }],
  ])('answers 422 for %s and leaves the record unchanged', async (_case, body) => {
    const created = await create(200);
    const res = await api('PUT', `/intervals/${created.id}`, { body });
    expect(res.status).toBe(422);
    expect((await api('GET', `/intervals/${created.id}`)).body).toEqual(created);
  });

  it('answers 422 for a non-integer id', async () => {
    expect((await api('PUT', '/intervals/abc', { body: { intervalDeviceWatchers: 5 } })).status).toBe(422);
  });
});

describe('DELETE /intervals/{id}', () => {
  it('deletes the record, then reports it unknown', async () => {
    const created = await create();
    const res = await api<string>('DELETE', `/intervals/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toBe(`Interval ${created.id} deleted`);
    expect((await api('GET', `/intervals/${created.id}`)).status).toBe(404);
    expect((await api('DELETE', `/intervals/${created.id}`)).status).toBe(404);
  });

  it('answers 422 for a non-integer id', async () => {
    expect((await api('DELETE', '/intervals/x1')).status).toBe(422);
  });
});
