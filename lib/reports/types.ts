import type { Weekday } from '#lib/maintenance/pure/rrule';
import type { AccessScopeEntry } from '#lib/shared/access';

/**
 * Scheduled fleet reports: a schedule says when a report is made (daily, or
 * weekly on one weekday, at a wall-clock time of an IANA zone), over which places (its scope)
 * and to which notification channels it goes.
 */
type ReportPeriod = 'daily' | 'weekly';
export const REPORT_PERIODS = ['daily', 'weekly'] as const satisfies readonly ReportPeriod[];

/** When a report is made: each period ends (and the next starts) at `time` of `timeZone`'s wall clock. */
export interface ReportTiming {
  period: ReportPeriod;
  /** The day a weekly period ends on; absent for a daily one. */
  weekday?: Weekday;
  /** HH:MM, local. */
  time: string;
  timeZone: string;
}

/** A schedule as clients send it (POST, and PUT, which replaces it whole). */
export interface ReportInput extends ReportTiming {
  name: string;
  channelIds: string[];
  /** Narrows the report to these places, within the caller's own scope (absent: the caller's scope). */
  scope?: AccessScopeEntry[];
  active?: boolean;
}

/** A schedule as stored and answered. */
export interface ReportSchedule extends ReportTiming {
  id: string;
  name: string;
  channelIds: string[];
  /** The places the report covers; empty: the whole fleet. Only a principal whose scope holds it reaches the schedule. */
  scope: AccessScopeEntry[];
  active: boolean;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

/** One room in a report's worst-rooms list. */
interface ReportRoom {
  region: string;
  location: string;
  room: string;
  deviceCount: number;
  /** Connected over observed device-time in the period, 0..1. */
  availability: number;
}

/** Alarms of one kind (watcher) cleared in the period. */
export interface ReportAlarmKind {
  watcherId: string;
  /** The watcher's type ("offline"), or "unknown" once the watcher is deleted. */
  kind: string;
  description: string;
  severity: number;
  count: number;
}

/** One outage: an alarm of a connectivity watcher (type "offline") cleared in the period. */
export interface ReportOutage {
  region: string;
  location: string;
  room: string;
  devicesn: string;
  raisedAt: string;
  clearedAt: string;
  durationSeconds: number;
}

/** What a report tells, as built once per schedule and period. */
export interface FleetReport {
  scheduleId: string;
  name: string;
  period: ReportPeriod;
  /** The period reported on, [from, to). */
  from: string;
  to: string;
  timeZone: string;
  /** The places covered, e.g. "EMEA / London, AMER" or "the whole fleet". */
  scope: string;
  availability: { overall: number; rooms: number; worstRooms: ReportRoom[] };
  alarms: { total: number; bySeverity: Record<string, number>; byKind: ReportAlarmKind[]; truncated: boolean };
  longestOutages: ReportOutage[];
  /** When it was built (ISO 8601). */
  generatedAt: string;
}
