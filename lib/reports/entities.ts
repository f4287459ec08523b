import type { ReportSchedule } from '#lib/reports/types';
import { docRow, entity, numbers, texts } from '#lib/store/entity';

/* Scheduled fleet reports: the schedules, and one marker per schedule and period. */
const reports = 'Scheduled reports';

export const REPORTS = 'REPORTS';
/** A report schedule: few, in one partition sorted by UUIDv7 id (docs/guide/rules/reports.md "Report schedules: /reports under watchers:write, kept to a scope like a watcher, 422 for bad input"). */
export const ReportScheduleEntity = /* @__PURE__ */ entity({
  type: 'ReportSchedule',
  key: (id: string) => ({ PK: REPORTS, SK: `REPORT#${id}` }),
  fromItem: (item): ReportSchedule => ({
    ...texts(item, 'id', 'name'),
    period: item.period as ReportSchedule['period'],
    ...(typeof item.weekday === 'string' ? { weekday: item.weekday as NonNullable<ReportSchedule['weekday']> } : {}),
    ...texts(item, 'time', 'timeZone'),
    channelIds: Array.isArray(item.channelIds) ? item.channelIds.map(String) : [],
    scope: Array.isArray(item.scope) ? (item.scope as ReportSchedule['scope']) : [],
    active: item.active !== false,
    ...texts(item, 'createdBy', 'createdAt', 'updatedAt'),
  }),
});
dataModel: docRow(ReportScheduleEntity, {
  section: reports,
  PK: '`REPORTS`',
  SK: '`REPORT#<uuidv7>`',
  notes: '`id, name, period (daily, weekly), weekday?, time (HH:MM), timeZone, channelIds, scope (the places reported on), active, createdBy, createdAt, updatedAt, version`',
});

/** What a period's marker holds: who claimed it until when, and once made, when and to how many channels. */
export interface ReportRunState {
  status: 'claimed' | 'made';
  runId: string;
  /** Epoch ms: a claim not made by then may be taken over. */
  leaseUntil: number;
  madeAt?: string;
  deliveries?: number;
}

/**
 * The marker of one report (docs/guide/rules/reports.md "One report per schedule and period: a conditional marker claims it, deliveries are keyed by it"): put on
 * condition that none exists (or that its claim lapsed unmade), so that of racing runs one makes it.
 */
export const ReportRunEntity = /* @__PURE__ */ entity({
  type: 'ReportRun',
  key: ({ scheduleId, from }: { scheduleId: string; from: string }) => ({ PK: `REPORT#${scheduleId}`, SK: `RUN#${from}` }),
  fromItem: (item): ReportRunState => ({
    status: item.status === 'made' ? 'made' : 'claimed',
    runId: String(item.runId),
    leaseUntil: Number(item.leaseUntil ?? 0),
    ...(typeof item.madeAt === 'string' ? { madeAt: item.madeAt } : {}),
    ...(typeof item.deliveries === 'number' ? { deliveries: item.deliveries } : {}),
  }),
});
dataModel: docRow(ReportRunEntity, {
  section: reports,
  name: 'Report marker',
  PK: '`REPORT#<scheduleId>`',
  SK: '`RUN#<periodStart ISO>`',
  notes: '`status` (claimed, made), `runId`, `leaseUntil` (ms), `from, to` (the period), `madeAt`, `deliveries`, `expiresAt` (+ the alarm history retention)',
});

/**
 * How many on-demand report runs a report, or a principal, took in the current fixed window
 * (docs/guide/rules/reports.md "Report runs are budgeted, and a schedule names only channels shared with its writer"): kept in the table because the functions answering `POST /reports/{id}/run`
 * share no memory.
 */
export const ReportRunBudgetEntity = /* @__PURE__ */ entity({
  type: 'ReportRunBudget',
  key: (name: string) => ({ PK: `RUNBUDGET#${name}`, SK: 'RUNBUDGET' }),
  fromItem: (item) => numbers(item, 'count', 'expiresAt'),
});
dataModel: docRow(ReportRunBudgetEntity, {
  section: reports,
  name: 'Report run budget',
  PK: '`RUNBUDGET#report:<scheduleId>` or `RUNBUDGET#principal:<kind>:<username>`',
  SK: '`RUNBUDGET`',
  notes: '`count` (runs taken in the window), `expiresAt` = the window\'s end (epoch s, TTL)',
});
