import { ALL } from '#lib/devices/deviceScope';
import type { Severity } from '#lib/devices/types';
import type { AlarmFilter, AlarmView } from '#lib/alarms/repository/alarms';
import * as alarms from '#lib/alarms/repository/alarms';
import type { Page } from '#lib/store/paging';
import { devices } from '#lib/devices/repository/devices';
import * as silences from '#lib/alarms/repository/silences';
import { windowsOpenAt } from '#lib/maintenance/service';
import { maintenanceOf, type OpenWindow } from '#lib/maintenance/pure/windows';
import { isUnscoped, narrowToAccessScope, type AccessScope } from '#lib/shared/access';
import { answeredSilences, silencedBy } from './pure/silences';

/** GET /alarms query parameters, as validated strings. */
interface AlarmQuery {
  region?: string;
  location?: string;
  room?: string;
  severity?: string;
  watcherId?: string;
  state?: string;
  acknowledged?: string;
  limit?: string;
  cursor?: string;
}

const name = (value: string | undefined) => (value === undefined || value === ALL ? undefined : value);

/** The filter of a query: names narrow unless absent or `all` (as in device queries, DESIGN D10). */
const alarmFilter = (query: AlarmQuery): AlarmFilter => ({
  region: name(query.region),
  location: name(query.location),
  room: name(query.room),
  severity: query.severity === undefined ? undefined : (Number(query.severity) as Severity),
  watcherId: query.watcherId,
  state: query.state === 'pending' ? 'pending' : 'firing',
  acknowledged: query.acknowledged === undefined ? undefined : query.acknowledged === 'true',
});

/**
 * An open alarm as answered: also the ids of the silences that silence it now (the first
 * MAX_SILENCED_BY) and their number, and `inMaintenance`, the open maintenance windows that hold
 * it, when there are any (docs/guide/rules/maintenance.md "An alarm's maintenance windows are computed when it is read, not stored on it").
 */
export type AlarmAnswer = AlarmView & { silencedBy: string[]; silencedByCount: number; inMaintenance?: string[] };

/** Adds `silencedBy` and `inMaintenance` to open alarms, from the silences active and the windows open now (one Query each). */
export const withSilences = async (list: readonly AlarmView[]): Promise<AlarmAnswer[]> => {
  if (list.length === 0) return [];
  const at = new Date();
  const now = at.toISOString();
  const [current, open] = await Promise.all([silences.current(now), windowsOpenAt(at)]);
  const vendorOf = await vendorsFor(list, open);
  return list.map((alarm) => ({ ...alarm, ...answeredSilences(silencedBy(alarm, current, now)), ...maintenanceOf(open, { ...alarm, vendor: vendorOf.get(alarm.devicesn) }) }));
};

/** The vendors of the alarms' devices (read by key), only when an open window matches on vendor: alarms do not carry it. */
const vendorsFor = async (list: readonly AlarmView[], open: readonly OpenWindow[]): Promise<Map<string, string | undefined>> => {
  if (!open.some(({ window }) => window.matchers.vendor !== undefined)) return new Map();
  const found = await devices.at(list.map((alarm) => ({ devicesn: alarm.devicesn, place: alarm })));
  return new Map(found.map((device) => [device.devicesn, device.vendor]));
};

/**
 * The filter of a query within the caller's scope: the query's own for an unscoped caller;
 * otherwise also `within` the places it shares with the scope, or undefined when it shares none.
 */
const alarmFilterWithin = (query: AlarmQuery, access: AccessScope): AlarmFilter | undefined => {
  const filter = alarmFilter(query);
  if (isUnscoped(access)) return filter;
  const { region, location, room } = filter;
  const within = narrowToAccessScope({ region, location, room }, access);
  return within.length === 0 ? undefined : { ...filter, within };
};

/** GET /alarms: firing (or pending) alarms newest first (within the caller's scope), each with the silences that silence it. */
export const listAlarms = async (query: AlarmQuery, access: AccessScope = []): Promise<AlarmAnswer[] | Page<AlarmAnswer>> => {
  const paged = query.limit !== undefined || query.cursor !== undefined;
  const filter = alarmFilterWithin(query, access);
  if (!filter) return paged ? { items: [], nextCursor: null } : [];
  const answer = await alarms.list(filter, { limit: query.limit ? Number(query.limit) : undefined, cursor: query.cursor });
  if (Array.isArray(answer)) return withSilences(answer);
  return { items: await withSilences(answer.items), nextCursor: answer.nextCursor };
};
