import { devices } from '#lib/devices/repository/devices';
import { filterRecords } from '#lib/config/filterRecords/repository';
import { NotFound } from '#lib/shared/errors';
import { isUnscoped, placeInAccessScope, type AccessScope } from '#lib/shared/access';
import type { FilterRecord } from './types';

/*
 * A filter that names a device tells that the device exists, and which filter it has: fleet data.
 * A scoped caller reads it only when the device is within its scope; any other answers the same
 * 404 as a missing filter (docs/guide/rules/access.md "Filter configurations and a device's filter
 * are narrowed to the scope"). A device the inventory does not know is outside every scope, as it
 * is for devices themselves. A filter without a device names no place and answers alike; so do
 * the filter list and count (id and name only: dashboard configuration).
 */

const FILTER_NOT_FOUND = 'Filter not found';
const hidden = () => new NotFound(FILTER_NOT_FOUND, { body: FILTER_NOT_FOUND });

/** Whether a scoped caller may learn of `deviceSN`: the inventory knows it and it lies in the scope. */
const deviceSeen = async (deviceSN: string, scope: AccessScope): Promise<boolean> => {
  if (isUnscoped(scope)) return true;
  const [device] = await devices.find([deviceSN]);
  return device !== undefined && placeInAccessScope(scope, device.details);
};

/** GET /filters/device/{deviceSN}: 404 as for a device without a filter when the device is outside the scope. */
export const filterOfDevice = async (deviceSN: string, scope: AccessScope): Promise<FilterRecord> => {
  if (!(await deviceSeen(deviceSN, scope))) throw hidden();
  return filterRecords.byDevice(deviceSN);
};

/** GET /filters/{id}: 404 as for an unknown id when the filter names a device outside the scope. */
export const filterOf = async (id: number, scope: AccessScope): Promise<FilterRecord> => {
  const filter = await filterRecords.get(id);
  if (filter.deviceSN !== undefined && !(await deviceSeen(filter.deviceSN, scope))) throw hidden();
  return filter;
};
