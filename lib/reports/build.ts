/**
 * Reads what a fleet report tells, within its schedule's scope, and builds it
 * (docs/guide/rules/reports.md "A report is bounded: ten worst rooms, ten longest outages, 5,000 cleared alarms, 100 schedules"): the rooms' availability over the period (24 h, from the
 * hourly rollups: lib/devices/availability.ts), the alarms cleared in it (alarm history, at most
 * MAX_HISTORY records), and the watchers' types.
 */
import { queryHistory } from '#lib/alarms/history';
import type { HistoryRecord } from '#lib/alarms/pure/history';
import * as watchers from '#lib/watchers/repository';
import { availabilityIn } from '#lib/devices/availability';
import { buildReport } from './pure/build';
import type { Period } from './pure/period';
import type { FleetReport, ReportSchedule } from './types';

/** The most cleared alarms a report reads (10 pages of 500); past it the counts say `truncated`. */
const MAX_HISTORY = 5_000;
const HISTORY_PAGE = 500;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The alarms cleared in [from, to), newest first, at most MAX_HISTORY, and whether more were
 * cleared. Its cursors are sealed and opened in this one process, so no stage secret is read.
 */
const clearedIn = async (schedule: ReportSchedule, period: Period): Promise<{ records: HistoryRecord[]; truncated: boolean }> => {
  const records: HistoryRecord[] = [];
  let cursor: string | undefined;
  do {
    const query = { from: iso(period.from), to: iso(period.to - 1), limit: String(HISTORY_PAGE), ...(cursor ? { cursor } : {}) };
    const page = await queryHistory(query, schedule.scope);
    records.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && records.length < MAX_HISTORY);
  return { records: records.slice(0, MAX_HISTORY), truncated: records.length > MAX_HISTORY || cursor !== undefined };
};

export const reportOn = async (schedule: ReportSchedule, period: Period, now: number): Promise<FleetReport> => {
  const [availability, history, known] = await Promise.all([availabilityIn({}, iso(period.from), iso(period.to), schedule.scope), clearedIn(schedule, period), watchers.list()]);
  return buildReport(schedule, {
    from: iso(period.from),
    to: iso(period.to),
    availability,
    history: history.records,
    truncated: history.truncated,
    kinds: new Map(known.map((watcher) => [watcher.id, watcher.type])),
    generatedAt: iso(now),
  });
};
