import { describe, expect, it } from 'vitest';
import { filterConfigs } from '#lib/config/filterConfigs/repository';
import { Invalid, NotFound } from '#lib/shared/errors';
import type { FiltersConfig } from '#lib/config/filterConfigs/types';

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
    await filterConfigs.replace(tree(1));
    expect(await filterConfigs.get(1)).toEqual(tree(1));
  });

  it('replaces the whole tree on a second per-id write', async () => {
    await filterConfigs.replace(tree(2));
    await filterConfigs.replace({ id: 2, region: 'US', locations: [{ locationName: 'NYC', rooms: [] }] });
    expect(await filterConfigs.get(2)).toEqual({ id: 2, region: 'US', locations: [{ locationName: 'NYC', rooms: [] }] });
  });

  it('round-trips unicode region, location and room names', async () => {
    const config = { id: 3, region: 'Ásia 亚洲', locations: [{ locationName: 'Tōkyō 東京', rooms: [{ roomName: '会議室 🎥' }] }] };
    await filterConfigs.replace(config);
    expect(await filterConfigs.get(3)).toEqual(config);
  });

  it('a list-form upsert keeps rooms of remaining locations and drops removed locations', async () => {
    await filterConfigs.replace(tree(4));
    await filterConfigs.upsertMany([{ id: 4, region: 'EU-W', locations: [{ locationName: 'Nice' }, { locationName: 'Paris' }] }]);
    expect(await filterConfigs.get(4)).toEqual({
      id: 4,
      region: 'EU-W',
      locations: [
        { locationName: 'Nice', rooms: [] },
        { locationName: 'Paris', rooms: [{ roomName: 'P1' }, { roomName: 'P2' }] },
      ],
    });
  });

  it('a list-form upsert creates unknown ids without rooms', async () => {
    await filterConfigs.upsertMany([{ id: 5, region: 'R', locations: [{ locationName: 'X' }] }]);
    expect(await filterConfigs.get(5)).toEqual({ id: 5, region: 'R', locations: [{ locationName: 'X', rooms: [] }] });
  });

  it('concurrent list-form upserts of one id end in the state of one of them, rooms kept', async () => {
    await filterConfigs.replace(tree(6));
    const regions = Array.from({ length: 8 }, (_, i) => `R${i}`);
    await Promise.all(regions.map((region) => filterConfigs.upsertMany([{ id: 6, region, locations: [{ locationName: 'Paris' }] }])));
    const stored = await filterConfigs.get(6);
    expect(regions).toContain(stored.region);
    expect(stored.locations).toEqual([{ locationName: 'Paris', rooms: [{ roomName: 'P1' }, { roomName: 'P2' }] }]);
  });

  it('refuses a list naming one id twice', async () => {
    await expect(
      filterConfigs.upsertMany([{ id: 7, region: 'a', locations: [] }, { id: 7, region: 'b', locations: [] }]),
    ).rejects.toBeInstanceOf(Invalid);
    await expect(filterConfigs.get(7)).rejects.toBeInstanceOf(NotFound);
  });

  it('reports an unknown id with the spec-style string', async () => {
    const error = await filterConfigs.get(99_999).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFound);
    expect((error as NotFound).body).toBe('Filter configuration not found');
  });

  it('deletes once, then reports the id unknown', async () => {
    await filterConfigs.replace(tree(8));
    await filterConfigs.remove(8);
    await expect(filterConfigs.get(8)).rejects.toBeInstanceOf(NotFound);
    await expect(filterConfigs.remove(8)).rejects.toBeInstanceOf(NotFound);
  });
});

describe('filters configuration collection (list, count, keep-list)', () => {
  it('lists by id, counts, keeps only the listed ids, and repeats safely', async () => {
    await filterConfigs.keepOnly([]);
    const records = Array.from({ length: 40 }, (_, i) => ({ id: 100 + i, region: `r${i}`, locations: [{ locationName: `l${i}` }] }));
    await filterConfigs.upsertMany(records);
    expect((await filterConfigs.list()).map((c) => c.id)).toEqual(records.map((r) => r.id));
    expect(await filterConfigs.count()).toBe(40);

    expect(await filterConfigs.keepOnly([101, 139])).toBe(38);
    expect((await filterConfigs.list()).map((c) => c.id)).toEqual([101, 139]);
    expect(await filterConfigs.keepOnly([101, 139])).toBe(0);
    expect(await filterConfigs.count()).toBe(2);
  });

  it('an empty keep-list deletes every configuration', async () => {
    await filterConfigs.replace(tree(200));
    await filterConfigs.keepOnly([]);
    expect(await filterConfigs.count()).toBe(0);
  });
});
