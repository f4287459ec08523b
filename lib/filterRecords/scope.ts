import { devices } from '#lib/db/devices';
import { filterRecords } from '#lib/db/filterRecords';
import { NotFound } from '#lib/errors';
import { isUnscoped, placeInScope, type AccessScope } from '#lib/shared/access';
import type { FilterRecord } from './types';

/**
 * GET /filters/device/{deviceSN}: the filter of a device is fleet data (it tells that the device
 * exists), so a scoped caller gets it only for a device within its scope; any other answers the
 * same 404 as a device without a filter (docs/guide/rules/access.md "Filter configurations and a device's filter are narrowed to the scope"). Filters themselves (`GET /filters`,
 * id and name) are dashboard configuration and answer alike to every caller.
 */
export const filterOfDevice = async (deviceSN: string, scope: AccessScope): Promise<FilterRecord> => {
  if (!isUnscoped(scope)) {
    const [device] = await devices.find([deviceSN]);
    if (!device || !placeInScope(scope, device.details)) throw new NotFound('Filter not found', { body: 'Filter not found' });
  }
  return filterRecords.byDevice(deviceSN);
};
