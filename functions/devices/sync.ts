import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from '#lib/shared/log';
import { nudgeEvaluation } from '#lib/adapters/nudge';
import { secret } from '#lib/adapters/secrets';
import { tracing } from '#lib/shared/tracing';
import { providersFromEnv } from '#lib/inventory';
import { SYNC_LEASE_WAIT_MS, syncAlone } from '#lib/inventory';
import { connectionsFromEnv } from '#lib/adapters/connections';
import { enableLivePush } from '#lib/live';

// every configured provider (DEVICE_PROVIDERS), its secrets from SSM in AWS; none: the sync stores nothing
const providers = providersFromEnv(process.env, secret);
enableLivePush(connectionsFromEnv());

// Scheduled (rate in schemas/devices.ts; no async retries, and one sync at a time under its lease):
// the device inventory from the providers into the table; the devices it changed are queued, and
// the nudge asks the queue evaluator to take them now (lib/adapters/nudge.ts).
export const handler = middy(async (_event: unknown, _context?: Context) => {
  // under `serverless offline` the local loop of scripts/start.ts syncs every SYNC_INTERVAL_SECONDS; offline's own
  // run of this schedule would sync beside it, whatever that setting says
  if (process.env.IS_OFFLINE) return { synced: false, reason: 'local syncs are paced by SYNC_INTERVAL_SECONDS' };
  // one sync at a time: a sync that finds another one running (or a retry of itself) does nothing;
  // a status poll holding the lease is waited for (a few seconds)
  const leased = await syncAlone(providers, { waitMs: SYNC_LEASE_WAIT_MS });
  if (!leased.ran) {
    if (leased.reason === 'no provider') return { synced: false, reason: 'no device provider configured (DEVICE_PROVIDERS)' };
    logger.info('device sync', { skipped: leased.reason });
    return leased;
  }
  const { result } = leased;
  await nudgeEvaluation('sync');
  logger.info('device sync', { ...result });
  return result;
}).use(tracing());
