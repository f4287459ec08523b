/**
 * The scheduled report run (docs/guide/rules/reports.md "One report per schedule and period: a conditional marker claims it, deliveries are keyed by it").
 * For each active schedule whose last period ended since it was created: claim that period's
 * report (a conditional put of its marker: of racing runs one wins), build it within the
 * schedule's scope, store one delivery per channel (deterministic ids, stored only if absent),
 * mark the report made, then attempt each delivery once. What fails is retried by the
 * notifier's due deliveries (lib/notify/deliver.ts), as an alarm digest is. A run that dies
 * after its claim leaves the marker unmade; once its lease ends the next run takes it over and
 * stores what is missing, never a second delivery.
 */
import { randomUUID } from 'node:crypto';
import type { Mailer } from '#lib/notify/mail/types';
import * as reports from '#lib/reports/repository';
import { logger } from '#lib/shared/log';
import { deliverer } from '#lib/notify/deliver';
import { historyExpiry } from '#lib/shared/retention';
import { reportOn } from './build';
import { reportDigest, reportDrafts } from './pure/drafts';
import { lastEndedPeriod } from './pure/period';
import type { ReportSchedule } from './types';

/** How long a claim holds before another run may take it over: longer than any run (the job's timeout is 300 s). */
export const CLAIM_LEASE_MS = 10 * 60_000;
/** A report is begun only with this much of the run's budget left. */
const MIN_REPORT_MS = 10_000;

interface ReportRunOptions {
  mailer: Mailer;
  /** Epoch ms: no report is begun after it, no send runs past it. */
  deadline: number;
  /** The clock (epoch ms): which periods have ended. Default: now. */
  now?: number;
}

interface ReportRunSummary {
  /** Reports this run made. */
  made: number;
  /** Deliveries this run stored. */
  deliveries: number;
  /** Periods another run had claimed or made. */
  skipped: number;
  /** Reports whose build failed (their claim lapses and a later run makes them). */
  failed: number;
  /** False when the budget left schedules for the next run. */
  complete: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();

export const runReports = async (options: ReportRunOptions): Promise<ReportRunSummary> => {
  const now = options.now ?? Date.now();
  const runId = randomUUID();
  const summary: ReportRunSummary = { made: 0, deliveries: 0, skipped: 0, failed: 0, complete: true };
  const send = deliverer({ mailer: options.mailer, deadline: options.deadline });

  const makeOne = async (schedule: ReportSchedule): Promise<void> => {
    const period = lastEndedPeriod(schedule, now);
    if (period.to < Date.parse(schedule.createdAt)) return; // ended before the schedule existed
    const key = { scheduleId: schedule.id, from: iso(period.from) };
    const claimed = await reports.claim(key, { runId, to: iso(period.to), now, leaseUntil: now + CLAIM_LEASE_MS, expiresAt: historyExpiry(iso(period.to)) });
    if (!claimed) {
      summary.skipped++;
      return;
    }
    const report = await reportOn(schedule, period, now);
    const drafts = reportDrafts(reportDigest(report, key.from), schedule.channelIds).map(({ draft }) => draft);
    const stored = await Promise.all(drafts.map((draft) => send.store(draft)));
    if (!(await reports.made(key, runId, { madeAt: iso(now), deliveries: drafts.length }))) return; // taken over meanwhile: that run sends
    summary.made++;
    summary.deliveries += stored.filter(Boolean).length;
    logger.info('report made', { scheduleId: schedule.id, from: key.from, to: report.to, deliveries: drafts.length });
    for (const draft of drafts) await send.attemptStored(draft.id);
  };

  for (const schedule of (await reports.all()).filter((s) => s.active)) {
    if (Date.now() + MIN_REPORT_MS > options.deadline) {
      summary.complete = false;
      break;
    }
    // one schedule's failure (a store error, a throttled read) holds no other back; its claim lapses and a later run retries
    await makeOne(schedule).catch((error: unknown) => {
      summary.failed++;
      logger.error('report not made', { scheduleId: schedule.id, error: error instanceof Error ? error.message : String(error) });
    });
  }
  return summary;
};
