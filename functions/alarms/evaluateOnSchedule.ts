import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from '#lib/shared/log';
import { recordWork } from '#lib/shared/metrics';
import { tracing } from '#lib/shared/tracing';
import { runEvaluation } from '#lib/alarms/engine';
import { mailerFromEnv } from '#lib/adapters/mail';
import { connectionsFromEnv } from '#lib/adapters/connections';
import { enableLivePush } from '#lib/live';

const mailer = mailerFromEnv();
enableLivePush(connectionsFromEnv());
const SCHEDULE_SECONDS = 60;

// Scheduled every minute (schemas/alarms.ts); evaluates when intervalDeviceWatchers seconds have passed.
// Under `serverless offline` (npm start) the local timer of scripts/start.ts paces runs instead
// (EVALUATE_INTERVAL_SECONDS; 0 in e2e, which drives runs through POST /alarms/evaluate).
export const handler = middy(async (_event: unknown, context: Context) => {
  if (process.env.IS_OFFLINE) return { ran: false, reason: 'local runs are paced by EVALUATE_INTERVAL_SECONDS' };
  const startedAt = Date.now();
  const outcome = await runEvaluation({ mailer, mode: 'scheduled', tickSeconds: SCHEDULE_SECONDS, budgetMs: context.getRemainingTimeInMillis() - 10_000 });
  logger.info('alarm evaluation', outcome.ran ? { ...outcome.summary } : { skipped: outcome.reason });
  if (outcome.ran) {
    const { summary } = outcome;
    await recordWork('evaluation', {
      EvaluationRuns: 1,
      EvaluationDuration: [Date.now() - startedAt, 'Milliseconds'],
      EvaluationComplete: summary.complete ? 1 : 0,
      AlarmsRaised: summary.raised,
      AlarmsCleared: summary.cleared,
      AlarmsPending: summary.pending,
    });
  }
  return outcome;
}).use(tracing());
