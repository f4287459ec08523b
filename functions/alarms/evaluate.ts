import type { Context } from 'aws-lambda';
import { logger } from '#lib/log';
import { runEvaluation } from '#lib/alarms/evaluate';
import { mailerFromEnv } from '#lib/alarms/mailer';

const mailer = mailerFromEnv();
const SCHEDULE_SECONDS = 60;

// Scheduled every minute (routes.yml); evaluates when intervalDeviceWatchers seconds have passed.
export const handler = async (_event: unknown, context: Context) => {
  const outcome = await runEvaluation({ mailer, force: false, tickSeconds: SCHEDULE_SECONDS, budgetMs: context.getRemainingTimeInMillis() - 10_000 });
  logger.info('alarm evaluation', outcome.ran ? { ...outcome.summary } : { skipped: outcome.reason });
  return outcome;
};
