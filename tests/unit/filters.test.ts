import { describe, expect, it } from 'vitest';
import { Invalid } from '#lib/shared/errors';
import { assertDistinctListForm, fromNestedForm, mergeListForm, toListForm, type FiltersConfig } from '#lib/config/filterConfigs/types';
import { duplicateIds, toSummary } from '#lib/config/filterRecords/types';

const stored: FiltersConfig = {
  id: 7,
  region: 'EU',
  locations: [
    { locationName: 'Paris', rooms: [{ roomName: 'P1' }, { roomName: 'P2' }] },
    { locationName: 'Lyon', rooms: [{ roomName: 'L1' }] },
  ],
};

describe('filter records', () => {
  it('a summary shows only id and name', () => {
    expect(toSummary({ id: 1, name: 'a', description: 'd', deviceSN: 'SN' })).toEqual({ id: 1, name: 'a' });
  });

  it('names every repeated id by its position', () => {
    expect(duplicateIds([{ id: 1 }, { id: 2 }, { id: 1 }, { id: 1 }])).toEqual([
      { field: 'body[2].id', message: 'body[2].id repeats id 1' },
      { field: 'body[3].id', message: 'body[3].id repeats id 1' },
    ]);
  });

  it('finds nothing to complain about in distinct ids', () => {
    expect(duplicateIds([{ id: 1 }, { id: 2 }])).toEqual([]);
  });
});

describe('filters configuration forms', () => {
  it('the list form shows locations without rooms', () => {
    expect(toListForm(stored)).toEqual({ id: 7, region: 'EU', locations: [{ locationName: 'Paris' }, { locationName: 'Lyon' }] });
  });

  it('the nested form becomes the stored tree with the path id', () => {
    const config = fromNestedForm(3, {
      region: { regionName: 'EU', location: [{ locationName: 'Paris', room: [{ roomName: 'P1' }] }] },
    });
    expect(config).toEqual({ id: 3, region: 'EU', locations: [{ locationName: 'Paris', rooms: [{ roomName: 'P1' }] }] });
  });

  it('the nested form refuses a location named twice, naming it', () => {
    const body = { region: { regionName: 'EU', location: [{ locationName: 'A', room: [] }, { locationName: 'A', room: [] }] } };
    expect(() => fromNestedForm(3, body)).toThrow(Invalid);
    try {
      fromNestedForm(3, body);
    } catch (error) {
      expect((error as Invalid).details).toEqual([{ field: 'body.region.location[1].locationName', message: expect.stringMatching(/repeats/) }]);
    }
  });

  it('a list-form merge keeps rooms of remaining locations, starts new ones empty, drops removed ones', () => {
    const merged = mergeListForm(
      { id: 7, region: 'EU-West', locations: [{ locationName: 'Nice' }, { locationName: 'Paris' }] },
      stored,
    );
    expect(merged).toEqual({
      id: 7,
      region: 'EU-West',
      locations: [
        { locationName: 'Nice', rooms: [] },
        { locationName: 'Paris', rooms: [{ roomName: 'P1' }, { roomName: 'P2' }] },
      ],
    });
  });

  it('a list-form merge into nothing creates locations without rooms', () => {
    expect(mergeListForm({ id: 1, region: 'R', locations: [{ locationName: 'X' }] }, undefined)).toEqual({
      id: 1,
      region: 'R',
      locations: [{ locationName: 'X', rooms: [] }],
    });
  });

  it('a list-form body with a repeated id or location is refused with each field named', () => {
    const records = [
      { id: 1, region: 'R', locations: [{ locationName: 'X' }, { locationName: 'X' }] },
      { id: 1, region: 'R', locations: [] },
    ];
    try {
      assertDistinctListForm(records);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(Invalid);
      expect((error as Invalid).details?.map((d) => d.field)).toEqual(['body[1].id', 'body[0].locations[1].locationName']);
    }
  });
});
