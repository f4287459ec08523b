import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from '#lib/log';
import { runEvaluation } from '#lib/alarms/evaluate';
import { mailerFromEnv } from '#lib/adapters/mail';
import { recordWork } from '#lib/observability/metrics';
import { tracing } from '#lib/observability/tracing';
import { providerFromEnv } from '#lib/devices/provider';
import { syncDevices } from '#lib/devices/sync';
import { connectionsFromEnv } from '#lib/adapters/connections';
import { enableLivePush } from '#lib/live/push';

const provider = providerFromEnv();
const mailer = mailerFromEnv();
enableLivePush(connectionsFromEnv());

// Scheduled (rate in contracts/devices.ts): the device inventory from the provider into the table,
// then the alarms of the devices it changed (the queue), in the same run; a busy evaluator leaves
// them queued for its next tick.
export const handler = middy(async (_event: unknown, context?: Context) => {
  const startedAt = Date.now();
  const result = await syncDevices(provider).catch(async (error: unknown) => {
    await recordWork('sync', { SyncRuns: 1, SyncFailed: 1, SyncDuration: [Date.now() - startedAt, 'Milliseconds'] });
    throw error;
  });
  await recordWork('sync', {
    SyncRuns: 1,
    SyncFailed: 0,
    SyncDuration: [Date.now() - startedAt, 'Milliseconds'],
    DevicesChanged: result.upserted + result.removed,
    Devices: result.devices,
  });
  // under `serverless offline` the local loop of scripts/start.ts evaluates after its syncs (e2e: only when asked)
  if (process.env.IS_OFFLINE) return result;
  const budgetMs = context?.getRemainingTimeInMillis ? context.getRemainingTimeInMillis() - 10_000 : undefined;
  const evaluation = await runEvaluation({ mailer, force: true, tickSeconds: 0, mode: 'queue', budgetMs });
  logger.info('device sync', { ...result, evaluation: evaluation.ran ? evaluation.summary : evaluation.reason });
  return { ...result, evaluation };
}).use(tracing());
