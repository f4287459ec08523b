import * as rooms from '#lib/db/rooms';
import * as summaries from '#lib/db/summaries';
import { scopeOf, type DeviceFilter } from './deviceScope';
import { countRooms, summaryScopeFor, type Counts } from './summary';

/**
 * The counts of a filter's scope: one summary read for everything, a region, or a region +
 * location (O(1) whatever the rooms); the room aggregates in scope otherwise (O(rooms in scope)).
 */
export const countsIn = async (filter: Partial<DeviceFilter>): Promise<Counts> => {
  const scope = scopeOf(filter);
  const summary = summaryScopeFor(scope);
  return summary ? summaries.get(summary) : countRooms(await rooms.inScope(scope));
};
