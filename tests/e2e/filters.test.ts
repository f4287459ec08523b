import { describe, expect, it } from 'vitest';
import { api, expectDeletedOnce } from '../support/api';

type Filter = { id: number; name: string; description?: string; deviceSN?: string };
type ErrorBody = { message: string; errors?: { field: string; message: string }[] };

// e2e files run one after another and only this file and filters-routing write filters,
// so tests here may reset and assert on the whole collection.
const fields = (res: { body: unknown }) => ((res.body as ErrorBody).errors ?? []).map((e) => e.field);
const upsertOne = async (id: number, body: Omit<Filter, 'id'> & { description: string }) => {
  const res = await api<string>('POST', `/filters/${id}`, { body });
  expect(res.status).toBe(200);
};
/** Stores filter `id`, then reads it at `path`: 200 with the whole record. */
const expectStoredAt = async (path: string, id: number, body: Omit<Filter, 'id'> & { description: string }) => {
  await upsertOne(id, body);
  expect(await api('GET', path)).toMatchObject({ status: 200, body: { id, ...body } });
};

describe('POST /filters and GET /filters', () => {
  it('upserts a list and lists every filter as {id, name} by id', async () => {
    await api('DELETE', '/filters', { body: [] });
    const res = await api<string>('POST', '/filters', {
      body: [
        { id: 12, name: 'Twelve', description: 'not listed', deviceSN: 'E2E-SN-12' },
        { id: 3, name: 'Three' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toBe('Upserted 2 filters');
    expect(await api('GET', '/filters')).toMatchObject({ status: 200, body: [{ id: 3, name: 'Three' }, { id: 12, name: 'Twelve' }] });
  });

  it('updates listed records in place, keeping fields they leave out', async () => {
    await upsertOne(20, { name: 'old', description: 'kept', deviceSN: 'E2E-SN-20' });
    await api('POST', '/filters', { body: [{ id: 20, name: 'new' }] });
    expect((await api('GET', '/filters/20')).body).toEqual({ id: 20, name: 'new', description: 'kept', deviceSN: 'E2E-SN-20' });
  });

  it('round-trips unicode names', async () => {
    const name = 'Sala Ñandú 会议室 🎥 Zürich';
    await api('POST', '/filters', { body: [{ id: 21, name, description: 'ελληνικά' }] });
    expect((await api<Filter>('GET', '/filters/21')).body).toMatchObject({ name, description: 'ελληνικά' });
    expect((await api<Filter[]>('GET', '/filters')).body).toContainEqual({ id: 21, name });
  });

  it.each([
    ['an object instead of an array', { id: 1, name: 'a' }, 'body'],
    ['an empty array', [], 'body'],
    ['a record without a name', [{ id: 1 }], 'body[0].name'],
    ['an empty name', [{ id: 1, name: '' }], 'body[0].name'],
    ['a name over 256 characters', [{ id: 1, name: 'x'.repeat(257) }], 'body[0].name'],
    ['a description over 2048 characters', [{ id: 1, name: 'a', description: 'x'.repeat(2049) }], 'body[0].description'],
    ['a fractional id', [{ id: 1.5, name: 'a' }], 'body[0].id'],
    ['a string id', [{ id: '1', name: 'a' }], 'body[0].id'],
    ['a zero id', [{ id: 0, name: 'a' }], 'body[0].id'],
    ['an unknown property', [{ id: 1, name: 'a', colour: 'red' }], 'body[0].colour'],
    ['a repeated id', [{ id: 30, name: 'a' }, { id: 30, name: 'b' }], 'body[1].id'],
    ['over 1000 records', Array.from({ length: 1001 }, (_, i) => ({ id: i + 1, name: 'a' })), 'body'],
  ])('answers 400 naming the field for %s, writing nothing', async (_case, body, field) => {
    const before = await api<number>('GET', '/filters/count');
    const res = await api<ErrorBody>('POST', '/filters', { body });
    expect(res.status).toBe(400);
    expect(fields(res)).toContain(field);
    expect((await api<number>('GET', '/filters/count')).body).toBe(before.body);
  });

  it('answers 400 for a request without a body', async () => {
    expect((await api('POST', '/filters')).status).toBe(400);
  });
});

describe('DELETE /filters (keep-list)', () => {
  it('deletes every filter whose id is not listed, and repeating it changes nothing', async () => {
    await api('DELETE', '/filters', { body: [] });
    await api('POST', '/filters', { body: [1, 2, 3, 4, 5].map((id) => ({ id, name: `k${id}` })) });

    const res = await api<string>('DELETE', '/filters', { body: [2, 4, 999] });
    expect(res.status).toBe(200);
    expect(res.body).toBe('Deleted 3 filters not in the list');
    expect((await api<Filter[]>('GET', '/filters')).body.map((f) => f.id)).toEqual([2, 4]);

    const again = await api<string>('DELETE', '/filters', { body: [2, 4, 999] });
    expect(again).toMatchObject({ status: 200, body: 'Deleted 0 filters not in the list' });
    expect((await api<Filter[]>('GET', '/filters')).body.map((f) => f.id)).toEqual([2, 4]);
  });

  it('deletes everything for an empty array', async () => {
    await api('POST', '/filters', { body: [{ id: 7, name: 'a' }, { id: 8, name: 'b' }] });
    expect((await api('DELETE', '/filters', { body: [] })).status).toBe(200);
    expect(await api('GET', '/filters')).toMatchObject({ status: 200, body: [] });
    expect((await api('GET', '/filters/count')).body).toBe(0);
  });

  it.each([
    ['a string id', ['1'], 'body[0]'],
    ['a fractional id', [2.5], 'body[0]'],
    ['an object', { ids: [1] }, 'body'],
    ['over 10000 ids', Array.from({ length: 10_001 }, (_, i) => i + 1), 'body'],
  ])('answers 400 naming the field for %s and deletes nothing', async (_case, body, field) => {
    await api('POST', '/filters', { body: [{ id: 40, name: 'survivor' }] });
    const res = await api<ErrorBody>('DELETE', '/filters', { body });
    expect(res.status).toBe(400);
    expect(fields(res)).toContain(field);
    expect((await api('GET', '/filters/40')).status).toBe(200);
  });

  it('answers 400 without a body instead of deleting everything', async () => {
    await api('POST', '/filters', { body: [{ id: 41, name: 'survivor' }] });
    expect((await api('DELETE', '/filters')).status).toBe(400);
    expect((await api('GET', '/filters/41')).status).toBe(200);
  });
});

describe('GET /filters/{id}', () => {
  it('answers the filter record', async () => {
    await expectStoredAt('/filters/50', 50, { name: 'Fifty', description: 'desc', deviceSN: 'E2E-SN-50' });
  });

  it('answers 404 with the string "Filter not found" for an unknown id', async () => {
    expect(await api('GET', '/filters/987654321')).toMatchObject({ status: 404, body: 'Filter not found' });
  });

  it.each(['abc', '1.5', '-1', '0'])('answers 400 naming the id for %s', async (id) => {
    const res = await api<ErrorBody>('GET', `/filters/${id}`);
    expect(res.status).toBe(400);
    expect(fields(res)).toEqual(['pathParameters.id']);
  });
});

describe('POST /filters/{id}', () => {
  it('inserts a filter that did not exist', async () => {
    const res = await api<string>('POST', '/filters/60', { body: { name: 'Sixty', description: 'new' } });
    expect(res).toMatchObject({ status: 200, body: 'Filter 60 upserted' });
    expect((await api('GET', '/filters/60')).body).toEqual({ id: 60, name: 'Sixty', description: 'new' });
  });

  it('updates name and description and keeps the device serial number when left out', async () => {
    await upsertOne(61, { name: 'a', description: 'b', deviceSN: 'E2E-SN-61' });
    await upsertOne(61, { name: 'c', description: 'd' });
    expect((await api('GET', '/filters/61')).body).toEqual({ id: 61, name: 'c', description: 'd', deviceSN: 'E2E-SN-61' });
  });

  it('removes the device association for deviceSN null', async () => {
    await upsertOne(62, { name: 'a', description: 'b', deviceSN: 'E2E-SN-62' });
    await api('POST', '/filters/62', { body: { name: 'a', description: 'b', deviceSN: null } });
    expect((await api('GET', '/filters/62')).body).toEqual({ id: 62, name: 'a', description: 'b' });
    expect((await api('GET', '/filters/device/E2E-SN-62')).status).toBe(404);
  });

  it.each([
    ['a missing description', { name: 'a' }, 'body.description'],
    ['a missing name', { description: 'a' }, 'body.name'],
    ['a numeric name', { name: 5, description: 'a' }, 'body.name'],
    ['an empty deviceSN', { name: 'a', description: 'b', deviceSN: '' }, 'body.deviceSN'],
    ['an id in the body', { id: 63, name: 'a', description: 'b' }, 'body.id'],
  ])('answers 400 naming the field for %s and writes nothing', async (_case, body, field) => {
    const res = await api<ErrorBody>('POST', '/filters/63', { body });
    expect(res.status).toBe(400);
    expect(fields(res)).toContain(field);
    expect((await api('GET', '/filters/63')).status).toBe(404);
  });

  it('answers 400 for a non-integer id', async () => {
    const res = await api<ErrorBody>('POST', '/filters/x1', { body: { name: 'a', description: 'b' } });
    expect(res.status).toBe(400);
    expect(fields(res)).toContain('pathParameters.id');
  });
});

describe('DELETE /filters/{id}', () => {
  it('deletes the filter, then answers 404 "Filter not found"', async () => {
    await upsertOne(70, { name: 'a', description: 'b' });
    await expectDeletedOnce('/filters/70', 'Filter 70 deleted', 'Filter not found');
  });

  it('answers 400 for a non-integer id', async () => {
    expect((await api('DELETE', '/filters/seventy')).status).toBe(400);
  });
});

describe('GET /filters/device/{deviceSN}', () => {
  it('answers the filter record with its deviceSN', async () => {
    await expectStoredAt('/filters/device/E2E-SN-80', 80, { name: 'dev', description: 'x', deviceSN: 'E2E-SN-80' });
  });

  it('answers the lowest id when two filters claim the serial number', async () => {
    await upsertOne(82, { name: 'b', description: '', deviceSN: 'E2E-SN-TWICE' });
    await upsertOne(81, { name: 'a', description: '', deviceSN: 'E2E-SN-TWICE' });
    expect((await api<Filter>('GET', '/filters/device/E2E-SN-TWICE')).body.id).toBe(81);
  });

  it('finds a unicode serial number sent percent-encoded', async () => {
    await upsertOne(83, { name: 'u', description: '', deviceSN: 'SN-Ünï-83' });
    expect((await api<Filter>('GET', `/filters/device/${encodeURIComponent('SN-Ünï-83')}`)).body.id).toBe(83);
  });

  it('answers 404 with the string "Filter not found" for an unknown serial number', async () => {
    expect(await api('GET', '/filters/device/E2E-SN-NOBODY')).toMatchObject({ status: 404, body: 'Filter not found' });
  });
});

describe('GET /filters/count', () => {
  it('answers the number of filters as a bare integer matching the list', async () => {
    await api('POST', '/filters', { body: [{ id: 90, name: 'a' }, { id: 91, name: 'b' }] });
    const count = await api<number>('GET', '/filters/count');
    const list = await api<Filter[]>('GET', '/filters');
    expect(count.status).toBe(200);
    expect(Number.isInteger(count.body)).toBe(true);
    expect(count.body).toBe(list.body.length);
  });

  it('goes up by one for a new filter and down by one for a deleted one', async () => {
    const before = (await api<number>('GET', '/filters/count')).body;
    await upsertOne(92, { name: 'a', description: '' });
    expect((await api('GET', '/filters/count')).body).toBe(before + 1);
    await api('DELETE', '/filters/92');
    expect((await api('GET', '/filters/count')).body).toBe(before);
  });
});
