import type { ReportSchedule } from '#lib/reports/types';
import { Conflict, NotFound } from '#lib/shared/errors';
import { caps } from '#lib/shared/caps';
import { REPORTS, ReportRunEntity, ReportRunBudgetEntity, ReportScheduleEntity as Schedules, type ReportRunState } from '#lib/reports/entities';
import { versioned, type Versioned } from '#lib/store/entity';
import { expr } from '#lib/store/expression';
import { listed } from '#lib/store/paging';
import { must, NEW, nowSeconds, type Item } from '#lib/store/table';
import { apart } from '#lib/store/transaction';
import { capped, members } from '#lib/store/caps';

// Report schedules are few: one partition sorted by UUIDv7 id, one Query, no index read (nothing lags);
// `version` guards replace and delete, REPORTS_MAX caps them. The conditional put claiming a period's marker makes its report once (docs/guide/rules/reports.md "One report per schedule and period: a conditional marker claims it, deliveries are keyed by it").
const { fromItem } = Schedules;

export type VersionedSchedule = Versioned<ReportSchedule>;

const schedules = versioned(
  Schedules,
  (id) => new NotFound(`Report schedule ${id} not found`),
  (id) => new Conflict(`Report schedule ${id} was changed by another request; read it again and retry`),
);

const full = (max: number) => `This stage holds ${max} report schedules, its maximum (REPORTS_MAX); delete one first (DELETE /reports/{id})`;
const cap = capped('reports', () => caps.reports(), full, members(REPORTS));

const fields = (schedule: ReportSchedule, version: number): Item => ({ ...schedule, version });

/** Stores a new schedule; 409 when the stage holds its maximum. */
export const create = async (schedule: ReportSchedule): Promise<ReportSchedule> => {
  await cap.admitted(schedule.id, undefined, () =>
    must(Schedules.put(schedule.id, fields(schedule, 1), NEW), () => new Error(`report schedule id ${schedule.id} collided`)),
  );
  return schedule;
};

export const getVersioned = schedules.read;

// The schedules, oldest first: the report run reads them all (one Query of one small partition), a scoped caller's page keeps its own.
const every = listed(() => ({ pk: REPORTS, consistent: true }), 'reports', fromItem);
export const all = every.all;
export const page = every.page;

/** Replaces a schedule read at `version`; 409 when written since, 404 when deleted since. */
export const replace = async (current: VersionedSchedule, schedule: ReportSchedule): Promise<ReportSchedule> => {
  await schedules.putAt(schedule.id, fields(schedule, current.version + 1), current.version);
  return schedule;
};

/** Deletes a schedule read at `version`; 409 when written since, 404 when gone. Its markers expire by TTL. */
export const remove = async (current: VersionedSchedule): Promise<void> => {
  await schedules.removeAt(current.record.id, current.version);
  await cap.forget(current.record.id);
};

/** A period's report: its schedule and start. */
type ReportKey = Parameters<typeof ReportRunEntity.key>[0];

/**
 * Claims the report of one period for `runId` until `leaseUntil` (epoch ms): a conditional put
 * that holds when no marker exists, or when the one there was claimed, never made, and its lease
 * ended before `now`. Of runs racing for one period exactly one wins.
 */
export const claim = async (key: ReportKey, claim: { runId: string; to: string; now: number; leaseUntil: number; expiresAt: number }): Promise<boolean> =>
  ReportRunEntity.put(
    key,
    { status: 'claimed', runId: claim.runId, leaseUntil: claim.leaseUntil, from: key.from, to: claim.to, expiresAt: claim.expiresAt },
    expr('attribute_not_exists(PK) OR (#status = :claimed AND #leaseUntil < :now)', { claimed: 'claimed', now: claim.now }),
  );

/** Marks a claimed report made (its deliveries stored); false when another run took the claim over meanwhile. */
export const made = async (key: ReportKey, runId: string, facts: { madeAt: string; deliveries: number }): Promise<boolean> =>
  !!(await ReportRunEntity.update(key, { set: { status: 'made', madeAt: facts.madeAt, deliveries: facts.deliveries } }, expr('#runId = :runId', { runId })));

/**
 * Marks a period's report made without any delivery, unless a marker exists: a period a schedule's
 * new timing closed before it was set is passed over (docs/guide/rules/reports.md "A report schedule whose timing changes does not report a period that ended before the change"), as one ended before its creation.
 */
export const passOver = async (key: ReportKey, facts: { to: string; madeAt: string; expiresAt: number }): Promise<boolean> =>
  ReportRunEntity.put(key, { status: 'made', from: key.from, to: facts.to, madeAt: facts.madeAt, deliveries: 0, expiresAt: facts.expiresAt }, expr('attribute_not_exists(PK)'));

export const run = async (key: ReportKey): Promise<ReportRunState | undefined> => ReportRunEntity.find(key, { consistent: true });

/** A run may go (`granted`), or the budget is spent until `retryAfterSeconds` from now. */
export type RunBudget = { granted: true; windowEnd: number } | { granted: false; retryAfterSeconds: number };

// a take races at most a few window changes (open, expire); past that, answer "spent" for a second
const MAX_TAKE_ATTEMPTS = 4;

/**
 * Takes one run of `name`'s budget of `max` per fixed window of `windowSeconds` (docs/guide/rules/reports.md "Report runs are budgeted, and a schedule names only channels shared with its writer"),
 * atomically: however many run in parallel, at most `max` are granted per window. The same
 * conditional updates as the password guess budget (lib/access/repository/sessions.ts `loginFailures`).
 */
export const takeRun = async (name: string, max: number, windowSeconds: number): Promise<RunBudget> => {
  for (let attempt = 0; attempt < MAX_TAKE_ATTEMPTS; attempt++) {
    const now = nowSeconds();
    // a budget is spent before the run it allows, apart from any change the run makes
    const slot = await apart(() => ReportRunBudgetEntity.update(name, { increment: { count: 1 } }, expr('#expiresAt > :now AND #count < :max', { now, max }), 'ALL_NEW'));
    if (slot) return { granted: true, windowEnd: Number(slot.expiresAt) };
    const windowEnd = now + windowSeconds;
    if (await apart(() => ReportRunBudgetEntity.update(name, { set: { count: 1, expiresAt: windowEnd, type: ReportRunBudgetEntity.type } }, expr('attribute_not_exists(PK) OR #expiresAt <= :now', { now })))) {
      return { granted: true, windowEnd };
    }
    const window = await ReportRunBudgetEntity.find(name, { consistent: true });
    if (window && window.expiresAt > nowSeconds() && window.count >= max) return { granted: false, retryAfterSeconds: window.expiresAt - nowSeconds() };
  }
  return { granted: false, retryAfterSeconds: 1 };
};

/** Gives back a run taken by `takeRun` (another budget refused the run), if its window is still the current one. */
export const giveBackRun = async (name: string, windowEnd: number): Promise<void> => {
  await apart(() => ReportRunBudgetEntity.update(name, { increment: { count: -1 } }, expr('#expiresAt = :end AND #count > :zero', { end: windowEnd, zero: 0 })));
};
