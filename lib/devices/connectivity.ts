import { historyDays, historyExpiry } from '#lib/alarms/settings';
import * as connectivity from '#lib/db/connectivity';
import type { Page } from '#lib/db/pages';
import { Invalid, ServiceUnavailable } from '#lib/errors';
import { advance, availabilityWindow, observedIn, ratio, windowDays, worstFirst, type Observed, type RoomAvailability, type RoomCounts } from './availability';
import { mapConcurrent } from '#lib/shared/concurrency';
import type { AccessScope } from '#lib/shared/access';
import { deviceWithin, roomsWithin } from './access';
import { scopeOf, type DeviceFilter, type Scope } from './deviceScope';
import type { Place, RoomAggregate } from './types';

const MAX_ATTEMPTS = 6;
const dayExpiry = (day: string) => historyExpiry(`${day}T23:59:59.999Z`);

/**
 * Brings a room's availability rollup up to `at` with its new counts (a room aggregate about to
 * be written). Nothing is written when the counts did not change. Retried when another writer
 * moved the rollup meanwhile.
 */
export const recordRoomCounts = async (place: Place, counts: RoomCounts, at: string): Promise<void> => {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const latest = await connectivity.latestRollup(place);
    if (latest && latest.connected === counts.connected && latest.observed === counts.observed) return;
    if (await connectivity.writeRollups(place, latest, advance(latest, at, counts), dayExpiry)) return;
  }
  throw new ServiceUnavailable(`room ${place.room} kept changing while its availability was recorded; retry`);
};

/** The `beforeWrite` of a room recompute that keeps its availability rollup current. */
export const rollupBeforeWrite = (aggregate: RoomAggregate): Promise<void> =>
  recordRoomCounts(aggregate, { connected: aggregate.online, observed: aggregate.deviceCount }, new Date().toISOString());

export interface AvailabilityAnswer {
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
export const availabilityIn = async (scope: Scope, from: string, to: string, access: AccessScope = []): Promise<AvailabilityAnswer> => {
  const { first, last } = windowDays(from, to);
  const inScope = await roomsWithin(scope, access);
  const measured = await mapConcurrent(inScope, 16, async (room): Promise<(RoomAvailability & Observed) | undefined> => {
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

const DAY_MS = 24 * 60 * 60 * 1000;
type Problem = { field: string; message: string };
const invalid = (problems: Problem[]) => new Invalid(problems[0]!.message, problems);

/** POST /videoDevice/room/availability: the device filter plus an optional window. */
export const roomAvailability = async (body: DeviceFilter & { from?: string; to?: string }, access: AccessScope = []): Promise<AvailabilityAnswer> => {
  const window = availabilityWindow(body, Date.now());
  if ('problems' in window) throw invalid(window.problems);
  return availabilityIn(scopeOf(body), window.from, window.to, access);
};

/**
 * GET /videoDevice/{devicesn}/history: a known device's transitions, newest first (404 unknown
 * device, or one outside the caller's scope); default window: a retention up to `to` (now).
 */
export const deviceHistory = async (
  devicesn: string,
  query: { from?: string; to?: string; limit?: string; cursor?: string },
  access: AccessScope = [],
): Promise<Page<{ at: string; connected: boolean; inCallStatus: string }>> => {
  await deviceWithin(devicesn, access);
  const now = Date.now();
  const end = query.to ? Date.parse(query.to) : now;
  const from = new Date(query.from ? Date.parse(query.from) : end - historyDays() * DAY_MS).toISOString();
  const to = new Date(end).toISOString();
  if (from > to) throw invalid([{ field: 'queryStringParameters.from', message: 'from must not be after to' }]);
  return connectivity.history(devicesn, from, to, query.limit ? Number(query.limit) : 100, query.cursor);
};
