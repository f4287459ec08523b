import type { AccessScope } from '#lib/shared/access';
import { countsWithin } from './access';
import { filterScopeOf, type DeviceFilter } from './deviceScope';
import type { Counts } from './types';

/**
 * The counts of a filter's scope, within the caller's scope (`access`, unscoped by default):
 * from the summaries of everything, a region or a region + location (O(1) each), the room
 * aggregates otherwise; O(scope) for a scoped caller (lib/devices/access.ts).
 */
export const countsIn = (filter: Partial<DeviceFilter>, access: AccessScope = []): Promise<Counts> => countsWithin(filterScopeOf(filter), access);
