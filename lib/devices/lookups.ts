import { rooms } from '#lib/db/rooms';
import { uniqueSorted } from '#lib/shared/names';
import { scopeOf, type DeviceFilter } from './deviceScope';
import type { Place } from './types';

export type LookupKind = keyof Place;

/** Body of `POST /filters/region|location|room`: flat fields (shape A) or `{filters}` (shape B). */
export type LookupBody = Partial<DeviceFilter> & { filters?: Partial<DeviceFilter> };

/** Names of the rooms in scope (rooms that hold devices), deduplicated and sorted (DESIGN D1). */
export const lookupNames = async (kind: LookupKind, filter: Partial<DeviceFilter>): Promise<string[]> =>
  uniqueSorted((await rooms.inScope(scopeOf(filter))).map((room) => room[kind]));

/** Shape B (a body with `filters`) answers the count of the names shape A lists. */
export const lookup = async (kind: LookupKind, body: LookupBody | undefined): Promise<string[] | number> => {
  if (body?.filters) return (await lookupNames(kind, body.filters)).length;
  return lookupNames(kind, body ?? {});
};
