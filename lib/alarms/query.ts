import { ALL } from '#lib/devices/deviceScope';
import type { Severity } from '#lib/devices/types';
import type { AlarmFilter } from '#lib/db/alarms';

/** GET /alarms query parameters, as validated strings. */
export interface AlarmQuery {
  region?: string;
  location?: string;
  room?: string;
  severity?: string;
  watcherId?: string;
  limit?: string;
  cursor?: string;
}

const name = (value: string | undefined) => (value === undefined || value === ALL ? undefined : value);

/** The filter of a query: names narrow unless absent or `all` (as in device queries, DESIGN D10). */
export const alarmFilter = (query: AlarmQuery): AlarmFilter => ({
  region: name(query.region),
  location: name(query.location),
  room: name(query.room),
  severity: query.severity === undefined ? undefined : (Number(query.severity) as Severity),
  watcherId: query.watcherId,
});
