import { devices } from '#lib/devices/repository/devices';
import * as rooms from '#lib/rollups/repository/rooms';
import * as summaries from '#lib/rollups/repository/summaries';
import { isUnscoped, narrowToAccessScope, placeInAccessScope, type AccessScope } from '#lib/shared/access';
import type { FilterScope } from './deviceScope';
import { addCounts, countRooms, summaryPlaceFor } from '#lib/rollups/pure/summary';
import { deviceNotFound, zeroCounts, type Counts, type RoomAggregate, type StoredDevice } from './types';

/*
 * The fleet as a principal may read it (DESIGN §5): a device filter within the caller's scope
 * becomes the disjoint narrower filters `narrowToAccessScope` answers, and every read below asks for
 * those instead, so a scoped read costs O(scope), never O(devices). An unscoped caller (the API
 * key among them) reads exactly what it read before: the filter itself, the same requests.
 */

/** The aggregates of the rooms in the filter and the scope, sorted by region, location, room. */
export const roomsWithin = (filter: FilterScope, access: AccessScope): Promise<RoomAggregate[]> =>
  isUnscoped(access) ? rooms.inPlace(filter) : rooms.inPlaces(narrowToAccessScope(filter, access));

/**
 * The counts of one filter: one summary read for everything, a region, or a region + location
 * (O(1) whatever the rooms); the room aggregates in it otherwise (O(rooms in it)).
 */
const countsOf = async (filter: FilterScope): Promise<Counts> => {
  const summary = summaryPlaceFor(filter);
  return summary ? summaries.get(summary) : countRooms(await rooms.inPlace(filter));
};

/** The counts of the filter within the scope: the sum over its narrower filters (disjoint, so no room counts twice). */
export const countsWithin = async (filter: FilterScope, access: AccessScope): Promise<Counts> => {
  const parts = await Promise.all(narrowToAccessScope(filter, access).map(countsOf));
  return parts.length === 1 ? parts[0]! : parts.reduce((total, counts) => addCounts(total, counts), zeroCounts());
};

/** A device by serial number, 404 when unknown or outside the scope: the same answer, so the scope leaks nothing. */
export const deviceWithin = async (devicesn: string, access: AccessScope): Promise<StoredDevice> => {
  const device = await devices.get(devicesn);
  if (!placeInAccessScope(access, device.details)) throw deviceNotFound(devicesn);
  return device;
};

/** The serial numbers of the devices in the scope, sorted: the whole inventory's index when unscoped, else the rooms in scope. */
export const serialNumbersWithin = async (access: AccessScope): Promise<string[]> =>
  isUnscoped(access) ? devices.serialNumbers() : devices.serialNumbersIn(await roomsWithin({}, access));
