/**
 * The content of a fleet report, from what the period's reads gave: the rooms' availability
 * (worst first), the alarms cleared in the period (alarm history) and the watchers' types. Pure.
 * Bounded (docs/guide/rules/reports.md "A report is bounded: ten worst rooms, ten longest outages, 5,000 cleared alarms, 100 schedules"): WORST_ROOMS rooms, LONGEST_OUTAGES outages
 * and MAX_KINDS kinds are kept, whatever the fleet.
 */
import type { HistoryRecord } from '#lib/alarms/pure/history';
import type { RoomAvailability } from '#lib/rollups/pure/availability';
import type { AccessScope } from '#lib/shared/access';
import { SEVERITIES } from '#lib/shared/severity';
import type { FleetReport, ReportAlarmKind, ReportOutage, ReportSchedule } from '../types';

export const WORST_ROOMS = 10;
export const LONGEST_OUTAGES = 10;
const MAX_KINDS = 50;
/** The watcher type whose alarms are outages (a device offline). */
const OUTAGE_KIND = 'offline';

interface ReportReads {
  from: string;
  to: string;
  availability: { overall: number; rooms: readonly RoomAvailability[] };
  /** The alarms cleared in the period, as many as were read. */
  history: readonly HistoryRecord[];
  /** More were cleared than were read (the cap). */
  truncated: boolean;
  /** Each known watcher's type, by id. */
  kinds: ReadonlyMap<string, string>;
  generatedAt: string;
}

/** "the whole fleet", or the scope's places: "AMER, EMEA / London". */
export const accessScopeLabel = (scope: AccessScope): string =>
  scope.length === 0 ? 'the whole fleet' : scope.map((entry) => (entry.location === undefined ? entry.region : `${entry.region} / ${entry.location}`)).join(', ');

const kindsOf = (history: readonly HistoryRecord[], kinds: ReadonlyMap<string, string>): ReportAlarmKind[] => {
  const byWatcher = new Map<string, ReportAlarmKind>();
  for (const record of history) {
    const found = byWatcher.get(record.watcherId);
    if (found) found.count++;
    else {
      byWatcher.set(record.watcherId, {
        watcherId: record.watcherId,
        kind: kinds.get(record.watcherId) ?? 'unknown',
        description: record.description ?? '',
        severity: record.severity,
        count: 1,
      });
    }
  }
  return [...byWatcher.values()].sort((a, b) => b.count - a.count || a.severity - b.severity || (a.watcherId < b.watcherId ? -1 : 1)).slice(0, MAX_KINDS);
};

const bySeverity = (history: readonly HistoryRecord[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const record of history) {
    const name = SEVERITIES[record.severity] ?? String(record.severity);
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
};

/** Outages cleared in the period, longest first: alarms of watchers of type "offline". */
const outagesOf = (history: readonly HistoryRecord[], kinds: ReadonlyMap<string, string>): ReportOutage[] =>
  history
    .filter((record) => kinds.get(record.watcherId) === OUTAGE_KIND)
    .map(({ region, location, room, devicesn, raisedAt, clearedAt, durationSeconds }) => ({ region, location, room, devicesn, raisedAt, clearedAt, durationSeconds }))
    .sort((a, b) => b.durationSeconds - a.durationSeconds || (a.raisedAt < b.raisedAt ? -1 : 1))
    .slice(0, LONGEST_OUTAGES);

export const buildReport = (schedule: Pick<ReportSchedule, 'id' | 'name' | 'period' | 'timeZone' | 'scope'>, reads: ReportReads): FleetReport => ({
  scheduleId: schedule.id,
  name: schedule.name,
  period: schedule.period,
  from: reads.from,
  to: reads.to,
  timeZone: schedule.timeZone,
  scope: accessScopeLabel(schedule.scope),
  availability: {
    overall: reads.availability.overall,
    rooms: reads.availability.rooms.length,
    worstRooms: reads.availability.rooms.slice(0, WORST_ROOMS).map(({ region, location, room, deviceCount, availability }) => ({ region, location, room, deviceCount, availability })),
  },
  alarms: { total: reads.history.length, bySeverity: bySeverity(reads.history), byKind: kindsOf(reads.history, reads.kinds), truncated: reads.truncated },
  longestOutages: outagesOf(reads.history, reads.kinds),
  generatedAt: reads.generatedAt,
});
