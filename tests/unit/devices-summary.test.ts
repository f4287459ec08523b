import { describe, expect, it } from 'vitest';
import { countRooms, expectedSummaries, summaryDeltas, summaryPlaceFor } from '#lib/rollups/pure/summary';
import { summaryKey, zeroCounts } from '#lib/devices/types';
import { roomAggregate } from '../support/records';

const room = roomAggregate;

describe('summaries', () => {
  it('serve everything, a region and a region + location; any other scope reads rooms', () => {
    expect(summaryPlaceFor({})).toEqual({});
    expect(summaryPlaceFor({ region: 'EMEA' })).toEqual({ region: 'EMEA' });
    expect(summaryPlaceFor({ region: 'EMEA', location: 'London' })).toEqual({ region: 'EMEA', location: 'London' });
    expect(summaryPlaceFor({ location: 'London' })).toBeUndefined();
    expect(summaryPlaceFor({ region: 'EMEA', room: 'R1' })).toBeUndefined();
  });

  it('move each scope a room belongs to by exactly its change', () => {
    const deltas = summaryDeltas([
      { place: room({}), before: room({}), after: room({ online: 2, offline: 0, roomStatus: 'Major' }) },
      { place: room({ room: 'R2' }), before: undefined, after: room({ room: 'R2', deviceCount: 3, online: 3, offline: 0 }) },
      { place: room({ region: 'APAC', location: 'Tokyo' }), before: room({ region: 'APAC', location: 'Tokyo' }), after: undefined },
    ]);
    expect(deltas.get(summaryKey({ region: 'EMEA', location: 'London' }))?.delta).toEqual({
      ...zeroCounts(),
      deviceCount: 3,
      online: 4,
      offline: -1,
      rooms: 1,
      Major: 1,
      OK: 0,
    });
    expect(deltas.get(summaryKey({}))?.delta).toMatchObject({ deviceCount: 1, rooms: 0, offline: -2, OK: -1, Major: 1 });
    expect(deltas.get(summaryKey({ region: 'APAC' }))?.delta).toMatchObject({ deviceCount: -2, rooms: -1 });
  });

  it('leave out rooms whose counts did not change', () => {
    expect(summaryDeltas([{ place: room({}), before: room({}), after: room({}) }]).size).toBe(0);
  });

  it('expect every scope to hold the sum of its rooms, everything even when empty', () => {
    const rooms = [room({}), room({ room: 'R2', roomStatus: 'Critical' }), room({ region: 'APAC', location: 'Tokyo' })];
    const expected = expectedSummaries(rooms);
    expect(expected.get(summaryKey({}))?.counts).toEqual(countRooms(rooms));
    expect(expected.get(summaryKey({ region: 'EMEA' }))?.counts).toMatchObject({ rooms: 2, deviceCount: 4, Critical: 1, OK: 1 });
    expect(expectedSummaries([]).get(summaryKey({}))?.counts).toEqual(zeroCounts());
  });
});
