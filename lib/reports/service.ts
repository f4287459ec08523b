/**
 * The `/reports` routes' work (docs/guide/rules/reports.md "Report schedules: /reports under watchers:write, kept to a scope like a watcher, 422 for bad input"):
 * create, list, read, replace and delete report schedules, and run one now. A schedule keeps the
 * places it reports on (`scope`): what the body names, within the caller's own scope, else the
 * caller's scope, as a watcher keeps its creator's. A scoped caller reaches only the schedules
 * whose scope lies within its own; any other is 404, as if unknown.
 */
import type { Mailer } from '#lib/notify/mail/types';
import * as store from '#lib/reports/repository';
import { mapPage, type Page } from '#lib/store/paging';
import { Invalid, NotFound, TooManyRequests } from '#lib/shared/errors';
import { timeOrderedId } from '#lib/maintenance/pure/windows';
import { timeZoneName } from '#lib/shared/zone';
import * as channels from '#lib/notify/repository/channels';
import { unknownChannels } from '#lib/notify/channelIds';
import { deliverer } from '#lib/notify/deliver';
import { isUnscoped, normalizeAccessScope, type AccessScope, type Permission } from '#lib/shared/access';
import { historyExpiry } from '#lib/shared/retention';
import { accessScopeWithin } from '#lib/shared/scopeWithin';
import { randomUUID } from 'node:crypto';
import { reportOn } from './build';
import { reportDigest, reportDrafts } from './pure/drafts';
import { currentPeriod, lastEndedPeriod, nextReportAt } from './pure/period';
import type { FleetReport, ReportInput, ReportSchedule } from './types';

/** A schedule as answered: with when its next report is due. */
type ScheduleAnswer = ReportSchedule & { nextReportAt: string | null };

const answerOf = (schedule: ReportSchedule, now: number): ScheduleAnswer => ({
  ...schedule,
  nextReportAt: schedule.active ? new Date(nextReportAt(schedule, now)).toISOString() : null,
});

const within = (schedule: Pick<ReportSchedule, 'scope'>, scope: AccessScope) => accessScopeWithin(schedule.scope, scope);

const outOfScope = () =>
  new NotFound('body.scope names places outside your scope', { details: [{ field: 'body.scope', message: 'body.scope must lie within your scope (each entry a region or location of it)' }] });

/**
 * The channels a caller may name in a schedule (docs/guide/rules/reports.md "Report runs are budgeted, and a schedule names only channels shared with its writer"): any channel with `channels:write`;
 * without it, only a channel some schedule within the caller's scope already names, which someone
 * allowed to name it shared with that scope. A channel that does not exist and one the caller may
 * not name are refused alike (422 "no channel <id>"), so the answer tells nothing of channels
 * outside the caller's reach.
 */
const checkChannelsAllowed = async (ids: readonly string[], scope: AccessScope, permissions: readonly Permission[]): Promise<void> => {
  if (ids.length === 0) return;
  const known = new Set((await channels.list()).map((channel) => channel.id));
  const shared = permissions.includes('channels:write') ? known : new Set((await store.all()).filter((schedule) => within(schedule, scope)).flatMap((schedule) => schedule.channelIds));
  const refused = [...new Set(ids)].filter((id) => !known.has(id) || !shared.has(id));
  if (refused.length > 0) throw unknownChannels(refused);
};

/** The stored fields of a schedule as sent: 422 naming the field, 404 a scope outside the caller's. */
const checked = async (input: ReportInput, scope: AccessScope, permissions: readonly Permission[]): Promise<Pick<ReportSchedule, 'name' | 'period' | 'weekday' | 'time' | 'timeZone' | 'channelIds' | 'scope' | 'active'>> => {
  const problems: { field: string; message: string }[] = [];
  const zone = timeZoneName(input.timeZone);
  if (!zone) problems.push({ field: 'body.timeZone', message: `body.timeZone: no IANA time zone ${JSON.stringify(input.timeZone)}` });
  if (input.period === 'weekly' && input.weekday === undefined) problems.push({ field: 'body.weekday', message: 'body.weekday is required for a weekly report (MO..SU)' });
  if (input.period === 'daily' && input.weekday !== undefined) problems.push({ field: 'body.weekday', message: 'body.weekday is only for a weekly report' });
  if (problems.length > 0) throw new Invalid(problems[0]!.message, problems);
  const reported = input.scope === undefined ? normalizeAccessScope(scope) : normalizeAccessScope(input.scope);
  if (!accessScopeWithin(reported, scope)) throw outOfScope();
  await checkChannelsAllowed(input.channelIds, scope, permissions);
  return {
    name: input.name,
    period: input.period,
    ...(input.period === 'weekly' ? { weekday: input.weekday } : {}),
    time: input.time,
    timeZone: zone!,
    channelIds: [...new Set(input.channelIds)],
    scope: reported,
    active: input.active ?? true,
  };
};

/** Who writes or runs a schedule: its name, scope and permissions (the request's principal). */
export interface ReportCaller {
  kind: string;
  username: string;
  scope: AccessScope;
  permissions: readonly Permission[];
}

export const createSchedule = async (input: ReportInput, caller: ReportCaller): Promise<ScheduleAnswer> => {
  const now = Date.now();
  const at = new Date(now).toISOString();
  const schedule: ReportSchedule = { id: timeOrderedId(now), ...(await checked(input, caller.scope, caller.permissions)), createdBy: caller.username, createdAt: at, updatedAt: at };
  return answerOf(await store.create(schedule), now);
};

/** Schedules answered per page when no limit is asked. */
const DEFAULT_REPORTS_PAGE = 100;

export const listSchedules = async (query: { limit?: string; cursor?: string }, scope: AccessScope = []): Promise<Page<ScheduleAnswer>> => {
  const now = Date.now();
  const page = await store.page(query.limit ? Number(query.limit) : DEFAULT_REPORTS_PAGE, query.cursor, isUnscoped(scope) ? undefined : (schedule) => within(schedule, scope));
  return mapPage(page, (schedule) => answerOf(schedule, now));
};

const getWithin = async (id: string, scope: AccessScope): Promise<store.VersionedSchedule> => {
  const current = await store.getVersioned(id);
  if (!within(current.record, scope)) throw new NotFound(`Report schedule ${id} not found`);
  return current;
};

export const getSchedule = async (id: string, scope: AccessScope = []): Promise<ScheduleAnswer> => answerOf((await getWithin(id, scope)).record, Date.now());

/**
 * Replaces a schedule whole (id, createdBy and createdAt kept). Reports already made stay made. A
 * new timing whose last period ended before the edit does not report that period (it overlaps the
 * old timing's reports): its marker is written made, before the schedule (docs/guide/rules/reports.md "A report schedule whose timing changes does not report a period that ended before the change").
 */
export const replaceSchedule = async (id: string, input: ReportInput, caller: Pick<ReportCaller, 'scope' | 'permissions'>): Promise<ScheduleAnswer> => {
  const current = await getWithin(id, caller.scope);
  const now = Date.now();
  const { createdBy, createdAt } = current.record;
  const schedule: ReportSchedule = { id, ...(await checked(input, caller.scope, caller.permissions)), createdBy, createdAt, updatedAt: new Date(now).toISOString() };
  const [before, after] = [lastEndedPeriod(current.record, now), lastEndedPeriod(schedule, now)];
  if (after.from !== before.from) {
    const to = new Date(after.to).toISOString();
    await store.passOver({ scheduleId: id, from: new Date(after.from).toISOString() }, { to, madeAt: new Date(now).toISOString(), expiresAt: historyExpiry(to) });
  }
  return answerOf(await store.replace(current, schedule), now);
};

export const removeSchedule = async (id: string, scope: AccessScope = []): Promise<void> => {
  await store.remove(await getWithin(id, scope));
};

/** A report run on demand and where it went: one delivery per channel, how each went only in the channel's delivery log. */
interface ReportNow {
  report: FleetReport;
  deliveries: { channelId: string; deliveryId: string; type: 'report'; at: string }[];
}

/**
 * How often a report may be run on demand (docs/guide/rules/reports.md "Report runs are budgeted, and a schedule names only channels shared with its writer"): each report once a minute, each
 * principal ten times an hour (the API key is one principal). Kept in the table: the functions
 * answering share no memory.
 */
export const RUN_BUDGETS = {
  report: { max: 1, windowSeconds: 60 },
  principal: { max: 10, windowSeconds: 3_600 },
} as const;

const takeRuns = async (scheduleId: string, caller: Pick<ReportCaller, 'kind' | 'username'>): Promise<void> => {
  const perReport = `report:${scheduleId}`;
  const report = await store.takeRun(perReport, RUN_BUDGETS.report.max, RUN_BUDGETS.report.windowSeconds);
  if (!report.granted) throw new TooManyRequests(`Report ${scheduleId} may be run ${RUN_BUDGETS.report.max} time a minute; try again after Retry-After seconds`, report.retryAfterSeconds);
  const principal = await store.takeRun(`principal:${caller.kind}:${caller.username}`, RUN_BUDGETS.principal.max, RUN_BUDGETS.principal.windowSeconds);
  if (!principal.granted) {
    // a run refused by the caller's budget does not spend the report's, which another caller may use
    await store.giveBackRun(perReport, report.windowEnd);
    throw new TooManyRequests(`You may run reports ${RUN_BUDGETS.principal.max} times an hour; try again after Retry-After seconds`, principal.retryAfterSeconds);
  }
};

/**
 * POST /reports/{id}/run: the report of the period so far (from the last scheduled report to
 * now), sent to the schedule's channels now, each send a delivery of its own; it is no scheduled
 * report and does not stand for one. 429 past the report's or the caller's budget. The answer
 * names each channel's delivery alike, whatever the channel answered or whether it still exists.
 */
export const runScheduleNow = async (id: string, caller: ReportCaller, mailer: Mailer, deadline: number): Promise<ReportNow> => {
  const { record: schedule } = await getWithin(id, caller.scope);
  await takeRuns(id, caller);
  const now = Date.now();
  const report = await reportOn(schedule, { from: currentPeriod(schedule, now).from, to: now }, now);
  const drafts = reportDrafts(reportDigest(report, `now#${randomUUID()}`), schedule.channelIds);
  const send = deliverer({ mailer, deadline });
  for (const { draft } of drafts) await send.sendNow(draft);
  return { report, deliveries: drafts.map(({ channelId, draft }) => ({ channelId, deliveryId: draft.id, type: 'report', at: draft.digest.at })) };
};
