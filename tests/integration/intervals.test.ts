import { describe, expect, it } from 'vitest';
import { intervals } from '#lib/config/intervals/repository';
import { INTERVAL_FIELDS, type Intervals } from '#lib/config/intervals/types';
import { NotFound } from '#lib/shared/errors';

const settings = (base = 10): Intervals =>
  Object.fromEntries(INTERVAL_FIELDS.map((field, i) => [field, base + i])) as Intervals;

describe('intervals repository', () => {
  it('creates a record with the next id and reads it back', async () => {
    const created = await intervals.create(settings(100));
    expect(created).toEqual({ id: created.id, ...settings(100) });
    expect(await intervals.get(created.id)).toEqual(created);
  });

  it('hands out distinct ids to concurrent creates', async () => {
    const created = await Promise.all(Array.from({ length: 20 }, () => intervals.create(settings())));
    const ids = created.map((r) => r.id);
    expect(new Set(ids).size).toBe(20);
  });

  it('lists records in id order', async () => {
    const a = await intervals.create(settings(1));
    const b = await intervals.create(settings(2));
    const ids = (await intervals.list()).map((r) => r.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));
  });

  it('updates only the fields given', async () => {
    const created = await intervals.create(settings(50));
    const updated = await intervals.update(created.id, { intervalDeviceStatus: 999 });
    expect(updated).toEqual({ ...created, intervalDeviceStatus: 999 });
    expect(await intervals.get(created.id)).toEqual(updated);
  });

  it('refuses to update an unknown id without creating it', async () => {
    await expect(intervals.update(987654, { intervalDeviceStatus: 1 })).rejects.toBeInstanceOf(NotFound);
    await expect(intervals.get(987654)).rejects.toThrow('Interval 987654 not found');
  });

  it('deletes once, then reports the id unknown', async () => {
    const created = await intervals.create(settings());
    await intervals.remove(created.id);
    await expect(intervals.get(created.id)).rejects.toBeInstanceOf(NotFound);
    await expect(intervals.remove(created.id)).rejects.toBeInstanceOf(NotFound);
  });
});
