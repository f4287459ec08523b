import middy from '@middy/core';
import { logger } from '#lib/shared/log';
import { secret } from '#lib/adapters/secrets';
import { tracing } from '#lib/shared/tracing';
import { pollAlone, providersFromEnv } from '#lib/inventory';
import { nudgeEvaluation } from '#lib/adapters/nudge';
import { connectionsFromEnv } from '#lib/adapters/connections';
import { enableLivePush } from '#lib/live';

// every configured provider (DEVICE_PROVIDERS), its secrets from SSM in AWS; those without a status filter are left to the sync
const providers = providersFromEnv(process.env, secret);
enableLivePush(connectionsFromEnv());

// Scheduled (rate in schemas/devices.ts; no async retries; under the sync's lease, so never beside a
// sync or another poll): what each vendor says is not connected, compared with what is stored; the
// changes are written and queued for the alarm engine like a refresh's, and the queue evaluator is
// nudged to take them now (lib/adapters/nudge.ts).
export const handler = middy(async () => {
  // under `serverless offline` the local loop of scripts/start.ts polls every STATUS_POLL_SECONDS; offline's own
  // run of this schedule would poll beside it, whatever that setting says
  if (process.env.IS_OFFLINE) return { ran: false, reason: 'local status polls are paced by STATUS_POLL_SECONDS' };
  const polled = await pollAlone(providers);
  if (!polled.ran) {
    logger.info('status poll', { skipped: polled.reason });
    return polled;
  }
  if (polled.result.providers.some((provider) => provider.applied > 0)) await nudgeEvaluation('status-poll');
  return polled.result;
}).use(tracing());
