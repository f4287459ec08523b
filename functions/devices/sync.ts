import type { Context } from 'aws-lambda';
import { logger } from '#lib/log';
import { runEvaluation } from '#lib/alarms/evaluate';
import { mailerFromEnv } from '#lib/alarms/mailer';
import { providerFromEnv } from '#lib/devices/provider';
import { syncDevices } from '#lib/devices/sync';

const provider = providerFromEnv();
const mailer = mailerFromEnv();

// Scheduled (rate in routes.yml): the device inventory from the provider into the table, then
// the alarms of the devices it changed (the queue), in the same run; a busy evaluator leaves
// them queued for its next tick.
export const handler = async (_event: unknown, context?: Context) => {
  const result = await syncDevices(provider);
  const budgetMs = context ? context.getRemainingTimeInMillis() - 10_000 : undefined;
  const evaluation = await runEvaluation({ mailer, force: true, tickSeconds: 0, mode: 'queue', budgetMs });
  logger.info('device sync', { ...result, evaluation: evaluation.ran ? evaluation.summary : evaluation.reason });
  return { ...result, evaluation };
};
