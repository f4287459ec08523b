import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { mailerFromEnv } from '#lib/adapters/mail';
import { logger } from '#lib/shared/log';
import { tracing } from '#lib/shared/tracing';
import { runReports } from '#lib/reports/run';

const mailer = mailerFromEnv();

// Scheduled every 15 minutes (schemas/reports.ts): makes each active schedule's report once its period has ended.
// Under `serverless offline` (npm start) the local timer of scripts/start.ts runs it instead (REPORT_INTERVAL_SECONDS).
export const handler = middy(async (_event: unknown, context: Context) => {
  if (process.env.IS_OFFLINE) return { ran: false, reason: 'local runs are paced by REPORT_INTERVAL_SECONDS' };
  const summary = await runReports({ mailer, deadline: Date.now() + context.getRemainingTimeInMillis() - 10_000 });
  logger.info('report run', { ...summary });
  return summary;
}).use(tracing());
