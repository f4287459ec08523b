import { describe, expect, it } from 'vitest';
import { filterRecords } from '#lib/config/filterRecords/repository';
import { Invalid, NotFound } from '#lib/shared/errors';

// This file has its own table, so it owns the whole filters collection.
describe('filters repository', () => {
  it('inserts a filter and reads it back', async () => {
    await filterRecords.upsert(101, { name: 'Lobby', description: 'front', deviceSN: 'SN-101' });
    expect(await filterRecords.get(101)).toEqual({ id: 101, name: 'Lobby', description: 'front', deviceSN: 'SN-101' });
  });

  it('updates only the fields sent and keeps the rest', async () => {
    await filterRecords.upsert(102, { name: 'a', description: 'd', deviceSN: 'SN-102' });
    await filterRecords.upsert(102, { name: 'b', description: 'e' });
    expect(await filterRecords.get(102)).toEqual({ id: 102, name: 'b', description: 'e', deviceSN: 'SN-102' });
  });

  it('round-trips unicode names and descriptions', async () => {
    const name = 'Sala Ñandú 会议室 🎥 Zürich';
    await filterRecords.upsert(103, { name, description: 'ελληνικά — עברית' });
    expect(await filterRecords.get(103)).toMatchObject({ name, description: 'ελληνικά — עברית' });
  });

  it('reports an unknown id with the spec string', async () => {
    const error = await filterRecords.get(987_654).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFound);
    expect((error as NotFound).body).toBe('Filter not found');
  });

  it('finds a filter by its device serial number', async () => {
    await filterRecords.upsert(104, { name: 'dev', description: '', deviceSN: 'SN-104' });
    expect(await filterRecords.byDevice('SN-104')).toEqual({ id: 104, name: 'dev', description: '', deviceSN: 'SN-104' });
  });

  it('answers the lowest id when several filters claim one serial number', async () => {
    await filterRecords.upsert(106, { name: 'second', description: '', deviceSN: 'SN-SHARED' });
    await filterRecords.upsert(105, { name: 'first', description: '', deviceSN: 'SN-SHARED' });
    expect((await filterRecords.byDevice('SN-SHARED')).id).toBe(105);
  });

  it('moves the device lookup when the serial number changes, and forgets it when removed', async () => {
    await filterRecords.upsert(107, { name: 'x', description: '', deviceSN: 'SN-OLD' });
    await filterRecords.upsert(107, { name: 'x', description: '', deviceSN: 'SN-NEW' });
    await expect(filterRecords.byDevice('SN-OLD')).rejects.toBeInstanceOf(NotFound);
    expect((await filterRecords.byDevice('SN-NEW')).id).toBe(107);

    await filterRecords.upsert(107, { name: 'x', description: '', deviceSN: null });
    await expect(filterRecords.byDevice('SN-NEW')).rejects.toBeInstanceOf(NotFound);
    expect(await filterRecords.get(107)).toEqual({ id: 107, name: 'x', description: '' });
  });

  it('reports an unknown serial number as not found', async () => {
    await expect(filterRecords.byDevice('SN-NOBODY')).rejects.toThrow('Filter not found');
  });

  it('deletes once, then reports the id unknown', async () => {
    await filterRecords.upsert(108, { name: 'gone', description: '' });
    await filterRecords.remove(108);
    await expect(filterRecords.get(108)).rejects.toBeInstanceOf(NotFound);
    await expect(filterRecords.remove(108)).rejects.toBeInstanceOf(NotFound);
  });

  it('refuses a list naming one id twice and writes nothing', async () => {
    await expect(filterRecords.upsertMany([{ id: 109, name: 'a' }, { id: 109, name: 'b' }])).rejects.toBeInstanceOf(Invalid);
    await expect(filterRecords.get(109)).rejects.toBeInstanceOf(NotFound);
  });

  it('gives concurrent upserts of one id the state of one of them', async () => {
    const writes = Array.from({ length: 10 }, (_, i) => ({ name: `n${i}`, description: `d${i}` }));
    await Promise.all(writes.map((w) => filterRecords.upsert(110, w)));
    const { name, description } = await filterRecords.get(110);
    expect(writes).toContainEqual({ name, description });
  });
});

describe('filters collection (list, count, keep-list)', () => {
  it('upserts a list, lists {id, name} by id, counts, keeps only the listed ids, and repeats safely', async () => {
    await filterRecords.keepOnly([]);
    const records = Array.from({ length: 60 }, (_, i) => ({ id: 1000 + i, name: `f${i}`, description: 'x' }));
    await filterRecords.upsertMany(records);
    const listed = await filterRecords.list();
    expect(listed).toEqual(records.map(({ id, name }) => ({ id, name })));
    expect(await filterRecords.count()).toBe(60);

    const keep = [1003, 1050, 424242];
    expect(await filterRecords.keepOnly(keep)).toBe(58);
    expect((await filterRecords.list()).map((f) => f.id)).toEqual([1003, 1050]);
    expect(await filterRecords.count()).toBe(2);

    expect(await filterRecords.keepOnly(keep)).toBe(0);
    expect(await filterRecords.count()).toBe(2);
  });

  it('list upsert keeps stored description and device of records sent without them', async () => {
    await filterRecords.upsert(2000, { name: 'old', description: 'kept', deviceSN: 'SN-2000' });
    await filterRecords.upsertMany([{ id: 2000, name: 'new' }]);
    expect(await filterRecords.get(2000)).toEqual({ id: 2000, name: 'new', description: 'kept', deviceSN: 'SN-2000' });
  });

  it('an empty keep-list deletes every filter', async () => {
    await filterRecords.upsertMany([{ id: 3000, name: 'a' }, { id: 3001, name: 'b' }]);
    await filterRecords.keepOnly([]);
    expect(await filterRecords.count()).toBe(0);
    expect(await filterRecords.list()).toEqual([]);
  });
});
