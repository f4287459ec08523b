import * as connectivity from '#lib/devices/repository/connectivity';
import { devices } from '#lib/devices/repository/devices';
import * as profileStore from '#lib/locations/repository';
import * as maintenanceStore from '#lib/maintenance/repository/windows';
import { Invalid } from '#lib/shared/errors';
import { calendarOf, type RoomCalendar } from '#lib/locations/pure/hours';
import type { LocationProfile } from '#lib/locations/types';
import { maintenanceOpenings, type MaintenanceOpenings } from '#lib/maintenance/pure/openings';
import {
  DEFAULT_MIN_OUTAGE_SECONDS,
  parseBusinessHours,
  roomAvailability,
  worstRoomsFirst,
  type BusinessHours,
  type DeviceConnectivity,
  type Interval,
} from '#lib/rollups/pure/businessAvailability';
import { ratio } from '#lib/rollups/pure/availability';
import type { AccessScope } from '#lib/shared/access';
import { mapConcurrent } from '#lib/shared/concurrency';
import { roomsWithin } from './access';
import type { FilterScope } from './deviceScope';
import type { ConnectivityChange, Place, StoredDevice } from './types';

/*
 * Availability over business hours (docs/guide/rules/reports.md): read from each
 * device's connectivity transitions, not from the hourly rollups. Bounded: at most
 * MAX_BUSINESS_DEVICES devices in scope and MAX_TRANSITIONS_PER_DEVICE transitions each in the
 * window read, so one request reads O(devices x transitions) <= 2,000 x 2,000 items at most.
 */
const MAX_BUSINESS_DEVICES = 2_000;
const MAX_TRANSITIONS_PER_DEVICE = 2_000;
const PAGE = 1_000;
const DAY_MS = 86_400_000;

/** The fleet's business hours: BUSINESS_HOURS (`Mon-Fri 08:00-18:00`) in BUSINESS_TIME_ZONE (default UTC); undefined when unset. */
export const businessHoursSetting = (env: NodeJS.ProcessEnv = process.env): BusinessHours | undefined => {
  const text = env.BUSINESS_HOURS?.trim();
  if (!text) return undefined;
  const parsed = parseBusinessHours(text, env.BUSINESS_TIME_ZONE?.trim() || 'UTC');
  if ('problems' in parsed) throw new Error(`${parsed.problems[0]!.field}: ${parsed.problems[0]!.message}`);
  return parsed;
};

/** MIN_OUTAGE_SECONDS (default 120): outages shorter are ignored. */
export const minOutageSetting = (env: NodeJS.ProcessEnv = process.env): number => {
  const seconds = Number(env.MIN_OUTAGE_SECONDS);
  return env.MIN_OUTAGE_SECONDS !== undefined && env.MIN_OUTAGE_SECONDS !== '' && Number.isInteger(seconds) && seconds >= 0 ? seconds : DEFAULT_MIN_OUTAGE_SECONDS;
};

interface BusinessRoom extends Place {
  availability: number;
  deviceCount: number;
  outageMinutes: number;
  unhealthyDays?: number;
  /** What this room was counted in (answered when a location profile applies to a room of the answer: docs/guide/rules/reports.md "Availability counts each room in its own calendar: room > location profile > fleet > 24 h"). */
  hours?: 'business' | '24h';
  timeZone?: string;
}

export interface BusinessAnswer {
  from: string;
  to: string;
  hours: 'business' | '24h';
  rooms: BusinessRoom[];
  overall: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A device's transitions in [from, to) (oldest first) and its state when `from` came: the last transition before it. */
const connectivityOf = async (device: StoredDevice, from: number, to: number): Promise<DeviceConnectivity> => {
  const transitions: Pick<ConnectivityChange, 'at' | 'connected'>[] = [];
  let cursor: string | undefined;
  do {
    const page = await connectivity.history(device.devicesn, iso(from), iso(to - 1), PAGE, cursor);
    transitions.push(...page.items.map(({ at, connected }) => ({ at, connected })));
    if (transitions.length > MAX_TRANSITIONS_PER_DEVICE) {
      throw new Invalid(`device ${device.devicesn} changed more than ${MAX_TRANSITIONS_PER_DEVICE} times in the window; ask a shorter one`, [
        { field: 'body.from', message: `at most ${MAX_TRANSITIONS_PER_DEVICE} connectivity changes of a device are read; ask a shorter window` },
      ]);
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  transitions.reverse();
  const [before] = (await connectivity.history(device.devicesn, '', iso(from - 1), 1)).items;
  if (before) return { devicesn: device.devicesn, transitions, connectedAtStart: before.connected };
  // nothing before the window: the device was first observed at its first transition (or holds its state all along)
  const first = transitions[0];
  return first
    ? { devicesn: device.devicesn, transitions, connectedAtStart: first.connected, observedFrom: Date.parse(first.at) }
    : { devicesn: device.devicesn, transitions, connectedAtStart: device.status.connected };
};

/** The openings of the windows that take a device out (computed once per window per request: docs/guide/rules/maintenance.md "A maintenance window opens at most 48 times a day"). */
const openingsFor = (openings: MaintenanceOpenings, device: StoredDevice): readonly Interval[] =>
  openings.forTarget({ ...device.details, devicesn: device.devicesn, ...(device.vendor ? { vendor: device.vendor } : {}) });

/** The profiles availability counts rooms in, by location (lib/locations/repository `locationKey`). */
export type Profiles = ReadonlyMap<string, LocationProfile>;

/** Every location profile, for `businessAvailabilityIn`'s `profiles` (one Query). */
export const readProfiles = (): Promise<Profiles> => profileStore.all();

/** The profile of a room's location, if it has one. */
const profileOf = (profiles: Profiles, place: Place): LocationProfile | undefined => profiles.get(profileStore.locationKey(place));

interface BusinessOptions {
  /** The fleet's business hours (BUSINESS_HOURS); undefined: none. */
  hours: BusinessHours | undefined;
  unhealthyDays?: number;
  minOutageSeconds?: number;
  /** The fleet's zone (BUSINESS_TIME_ZONE) for rooms without a profile when `hours` is undefined; default UTC. */
  timeZone?: string;
  /** `business`: each room in its own business hours (room > location profile > `hours` > none: 24 h); `24h`: every room all day. Default: business when `hours` is given. */
  count?: 'business' | '24h';
  /** Location profiles; default: all of them, read here. */
  profiles?: Profiles;
}

/** The calendar a room is counted in: its own (business), or the whole day in its own zone (24 h). */
const calendarFor = (profiles: Profiles, place: Place, options: BusinessOptions, business: boolean): RoomCalendar => {
  const own = calendarOf(profileOf(profiles, place), place.room, { hours: options.hours, timeZone: options.timeZone });
  return business ? own : { hours: undefined, timeZone: own.timeZone, source: 'none' };
};

/**
 * Availability of the rooms in scope over [from, to), business hours (or all day), outages
 * shorter than MIN_OUTAGE_SECONDS ignored, maintenance left out; with `unhealthyDays` (30 or 90),
 * each room's count of unhealthy days over that many days up to `to` (24 h: days in `timeZone`,
 * default UTC). Worst rooms first.
 */
export const businessAvailabilityIn = async (
  scope: FilterScope,
  window: { from: string; to: string },
  options: BusinessOptions,
  access: AccessScope = [],
): Promise<BusinessAnswer> => {
  const from = Date.parse(window.from);
  const to = Date.parse(window.to);
  const unhealthyFrom = options.unhealthyDays ? to - options.unhealthyDays * DAY_MS : from;
  const readFrom = Math.min(from, unhealthyFrom);
  const inFilterScope = (await roomsWithin(scope, access)).filter((room) => room.deviceCount > 0);
  const deviceTotal = inFilterScope.reduce((sum, room) => sum + room.deviceCount, 0);
  if (deviceTotal > MAX_BUSINESS_DEVICES) {
    throw new Invalid(`${deviceTotal} devices are in scope; business-hours availability reads at most ${MAX_BUSINESS_DEVICES}: narrow the filter`, [
      { field: 'body.regionName', message: `at most ${MAX_BUSINESS_DEVICES} devices: narrow the filter` },
    ]);
  }
  const [windows, profiles] = await Promise.all([maintenanceStore.all(), options.profiles ?? readProfiles()]);
  const openings = maintenanceOpenings(windows, readFrom, to);
  const business = (options.count ?? (options.hours ? 'business' : '24h')) === 'business';
  // rooms say what they were counted in only when a profile applies to one: answers without profiles stay as they were
  const profiled = inFilterScope.some((room) => profileOf(profiles, room) !== undefined);
  const minOutageSeconds = options.minOutageSeconds ?? minOutageSetting();
  let observed = 0;
  let connected = 0;
  const measured = await mapConcurrent(inFilterScope, 4, async (room): Promise<BusinessRoom | undefined> => {
    const stored = await devices.inRoom(room);
    const read = await mapConcurrent(stored, 8, async (device) => ({
      ...(await connectivityOf(device, readFrom, to)),
      maintenance: openingsFor(openings, device),
    }));
    const calendar = calendarFor(profiles, room, options, business);
    const counted = roomAvailability(read, { from, to, hours: calendar.hours, timeZone: calendar.timeZone, minOutageSeconds });
    if (counted.observedMinutes <= 0) return undefined;
    observed += counted.observedMinutes;
    connected += counted.observedMinutes - counted.outageDeviceMinutes;
    const answer: BusinessRoom = {
      region: room.region,
      location: room.location,
      room: room.room,
      availability: counted.availability,
      deviceCount: read.length,
      outageMinutes: counted.outageMinutes,
    };
    if (options.unhealthyDays) {
      answer.unhealthyDays = roomAvailability(read, { from: unhealthyFrom, to, hours: calendar.hours, timeZone: calendar.timeZone, minOutageSeconds }).unhealthyDays.length;
    }
    if (profiled) Object.assign(answer, { hours: calendar.hours ? 'business' : '24h', timeZone: calendar.timeZone });
    return answer;
  });
  const rooms = measured.filter((room): room is BusinessRoom => room !== undefined);
  return {
    from: window.from,
    to: window.to,
    hours: business ? 'business' : '24h',
    rooms: rooms.sort(worstRoomsFirst),
    overall: ratio({ connectedSeconds: connected, observedSeconds: observed }),
  };
};
