import { describe, expect, it } from 'vitest';
import { filtersConfig } from '#lib/db/filtersConfig';
import { Invalid, NotFound } from '#lib/errors';
import type { FiltersConfig } from '#lib/filters/config';

const tree = (id: number, region = 'EU'): FiltersConfig => ({
  id,
  region,
  locations: [
    { locationName: 'Paris', rooms: [{ roomName: 'P1' }, { roomName: 'P2' }] },
    { locationName: 'Lyon', rooms: [{ roomName: 'L1' }] },
  ],
});

// This file has its own table, so it owns the whole configurations collection.
describe('filters configuration repository', () => {
  it('stores a nested tree and reads it back with its rooms', async () => {
    await filtersConfig.replace(tree(1));
    expect(await filtersConfig.get(1)).toEqual(tree(1));
  });

  it('replaces the whole tree on a second per-id write', async () => {
    await filtersConfig.replace(tree(2));
    await filtersConfig.replace({ id: 2, region: 'US', locations: [{ locationName: 'NYC', rooms: [] }] });
    expect(await filtersConfig.get(2)).toEqual({ id: 2, region: 'US', locations: [{ locationName: 'NYC', rooms: [] }] });
  });

  it('round-trips unicode region, location and room names', async () => {
    const config = { id: 3, region: 'Ásia 亚洲', locations: [{ locationName: 'Tōkyō 東京', rooms: [{ roomName: '会議室 🎥' }] }] };
    await filtersConfig.replace(config);
    expect(await filtersConfig.get(3)).toEqual(config);
  });

  it('a list-form upsert keeps rooms of remaining locations and drops removed locations', async () => {
    await filtersConfig.replace(tree(4));
    await filtersConfig.upsertMany([{ id: 4, region: 'EU-W', locations: [{ locationName: 'Nice' }, { locationName: 'Paris' }] }]);
    expect(await filtersConfig.get(4)).toEqual({
      id: 4,
      region: 'EU-W',
      locations: [
        { locationName: 'Nice', rooms: [] },
        { locationName: 'Paris', rooms: [{ roomName: 'P1' }, { roomName: 'P2' }] },
      ],
    });
  });

  it('a list-form upsert creates unknown ids without rooms', async () => {
    await filtersConfig.upsertMany([{ id: 5, region: 'R', locations: [{ locationName: 'X' }] }]);
    expect(await filtersConfig.get(5)).toEqual({ id: 5, region: 'R', locations: [{ locationName: 'X', rooms: [] }] });
  });

  it('concurrent list-form upserts of one id end in the state of one of them, rooms kept', async () => {
    await filtersConfig.replace(tree(6));
    const regions = Array.from({ length: 8 }, (_, i) => `R${i}`);
    await Promise.all(regions.map((region) => filtersConfig.upsertMany([{ id: 6, region, locations: [{ locationName: 'Paris' }] }])));
    const stored = await filtersConfig.get(6);
    expect(regions).toContain(stored.region);
    expect(stored.locations).toEqual([{ locationName: 'Paris', rooms: [{ roomName: 'P1' }, { roomName: 'P2' }] }]);
  });

  it('refuses a list naming one id twice', async () => {
    await expect(
      filtersConfig.upsertMany([{ id: 7, region: 'a', locations: [] }, { id: 7, region: 'b', locations: [] }]),
    ).rejects.toBeInstanceOf(Invalid);
    await expect(filtersConfig.get(7)).rejects.toBeInstanceOf(NotFound);
  });

  it('reports an unknown id with the spec-style string', async () => {
    const error = await filtersConfig.get(99_999).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFound);
    expect((error as NotFound).body).toBe('Filter configuration not found');
  });

  it('deletes once, then reports the id unknown', async () => {
    await filtersConfig.replace(tree(8));
    await filtersConfig.remove(8);
    await expect(filtersConfig.get(8)).rejects.toBeInstanceOf(NotFound);
    await expect(filtersConfig.remove(8)).rejects.toBeInstanceOf(NotFound);
  });
});

describe('filters configuration collection (list, count, keep-list)', () => {
  it('lists by id, counts, keeps only the listed ids, and repeats safely', async () => {
    await filtersConfig.keepOnly([]);
    const records = Array.from({ length: 40 }, (_, i) => ({ id: 100 + i, region: `r${i}`, locations: [{ locationName: `l${i}` }] }));
    await filtersConfig.upsertMany(records);
    expect((await filtersConfig.list()).map((c) => c.id)).toEqual(records.map((r) => r.id));
    expect(await filtersConfig.count()).toBe(40);

    expect(await filtersConfig.keepOnly([101, 139])).toBe(38);
    expect((await filtersConfig.list()).map((c) => c.id)).toEqual([101, 139]);
    expect(await filtersConfig.keepOnly([101, 139])).toBe(0);
    expect(await filtersConfig.count()).toBe(2);
  });

  it('an empty keep-list deletes every configuration', async () => {
    await filtersConfig.replace(tree(200));
    await filtersConfig.keepOnly([]);
    expect(await filtersConfig.count()).toBe(0);
  });
});
