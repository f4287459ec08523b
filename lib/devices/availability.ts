import * as connectivity from '#lib/devices/repository/connectivity';
import { Invalid } from '#lib/shared/errors';
import { availabilityWindow, observedIn, ratio, windowDays, worstFirst, type Observed, type RoomAvailability } from '#lib/rollups/pure/availability';
import { placeInAccessScope, type AccessScope } from '#lib/shared/access';
import { mapConcurrent } from '#lib/shared/concurrency';
import { roomsWithin } from './access';
import { businessAvailabilityIn, businessHoursSetting, readProfiles, type BusinessAnswer, type Profiles } from './businessAvailability';
import { inFilterScope, filterScopeOf, type DeviceFilter, type FilterScope } from './deviceScope';

interface AvailabilityAnswer {
  from: string;
  to: string;
  rooms: RoomAvailability[];
  overall: number;
}

/**
 * Availability of the rooms in scope (and in the caller's, `access`) over [from, to): per room,
 * one Query of its daily rollups. A room without any rollup has not changed since before
 * rollups were kept: its current counts held all along. A room first observed after the window
 * is left out.
 */
export const availabilityIn = async (scope: FilterScope, from: string, to: string, access: AccessScope = []): Promise<AvailabilityAnswer> => {
  const { first, last } = windowDays(from, to);
  const inFilterScope = await roomsWithin(scope, access);
  const measured = await mapConcurrent(inFilterScope, 16, async (room): Promise<(RoomAvailability & Observed) | undefined> => {
    const rollups = await connectivity.rollups(room, first, last);
    const fallback = rollups.length === 0 && !(await connectivity.latestRollup(room)) ? { connected: room.online, observed: room.deviceCount } : undefined;
    const observed = observedIn(rollups, from, to, fallback);
    if (observed.observedSeconds <= 0) return undefined;
    return { region: room.region, location: room.location, room: room.room, deviceCount: room.deviceCount, availability: ratio(observed), ...observed };
  });
  const present = measured.filter((room): room is RoomAvailability & Observed => room !== undefined);
  const overall = ratio({
    connectedSeconds: present.reduce((sum, room) => sum + room.connectedSeconds, 0),
    observedSeconds: present.reduce((sum, room) => sum + room.observedSeconds, 0),
  });
  return {
    from,
    to,
    rooms: present.map(({ region, location, room, availability, deviceCount }) => ({ region, location, room, availability, deviceCount })).sort(worstFirst),
    overall,
  };
};

type Problem = { field: string; message: string };
const invalid = (problems: Problem[]) => new Invalid(problems[0]!.message, problems);

type AvailabilityBody = DeviceFilter & { from?: string; to?: string; hours?: 'business' | '24h'; unhealthyDays?: 30 | 90 };

/** Whether a profile within the filter and the caller's scope names business hours (its location's or a room's). */
const profilesNameHours = (profiles: Profiles, body: DeviceFilter, access: AccessScope): boolean => {
  const { room, ...where } = filterScopeOf(body);
  return [...profiles.values()].some(
    (profile) =>
      inFilterScope(where, { ...profile, room: '' }) &&
      placeInAccessScope(access, profile) &&
      (profile.businessHours !== undefined || profile.rooms.some((entry) => entry.businessHours !== undefined && (room === undefined || entry.room === room))),
  );
};

/**
 * POST /videoDevice/room/availability: the device filter plus an optional window. Business hours
 * (the default when BUSINESS_HOURS is set or a location profile in scope names some; each room in
 * its own, docs/guide/rules/reports.md "Availability counts each room in its own calendar: room > location profile > fleet > 24 h") or unhealthy days are read from connectivity changes
 * (./businessAvailability.ts); 24 h without unhealthy days from the hourly rollups, as before.
 */
export const roomAvailability = async (body: AvailabilityBody, access: AccessScope = []): Promise<AvailabilityAnswer | BusinessAnswer> => {
  const window = availabilityWindow(body, Date.now());
  if ('problems' in window) throw invalid(window.problems);
  const business = businessHoursSetting();
  if (body.hours === '24h' && body.unhealthyDays === undefined) return availabilityIn(filterScopeOf(body), window.from, window.to, access);
  const profiles = await readProfiles();
  const anyHours = business !== undefined || profilesNameHours(profiles, body, access);
  const hours = body.hours ?? (anyHours ? 'business' : '24h');
  if (hours === 'business' && !anyHours) {
    throw invalid([{ field: 'body.hours', message: 'no business hours are configured (BUSINESS_HOURS): ask hours 24h' }]);
  }
  if (hours === '24h' && body.unhealthyDays === undefined) return availabilityIn(filterScopeOf(body), window.from, window.to, access);
  return businessAvailabilityIn(filterScopeOf(body), window, { hours: business, count: hours, timeZone: business?.timeZone, unhealthyDays: body.unhealthyDays, profiles }, access);
};
