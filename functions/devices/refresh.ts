import http from '#generated/routes/devicesRefresh';
import { logger } from '#lib/log';
import { runEvaluation } from '#lib/alarms/evaluate';
import { mailerFromEnv } from '#lib/adapters/mail';
import { secret } from '#lib/adapters/secrets';
import { fleetProvider, providersFromEnv } from '#lib/devices/provider';
import { refreshDevice } from '#lib/devices/sync';
import { connectionsFromEnv } from '#lib/adapters/connections';
import { enableLivePush } from '#lib/live/push';

// the device's own vendor answers (DEVICE_PROVIDERS; secrets from SSM in AWS)
const provider = fleetProvider(providersFromEnv(process.env, secret));
const mailer = mailerFromEnv();
enableLivePush(connectionsFromEnv());

// POST /videoDevice/refresh/{devicesn} -> Device + refreshInfo.lastRefresh, live from the provider; 404; 422
// The device's alarms follow before the answer (a few seconds at most; when the evaluator is
// busy the change stays queued for its next tick).
export const handler = http(async ({ path }) => {
  const refreshed = await refreshDevice(provider, path.devicesn);
  await runEvaluation({ mailer, force: true, tickSeconds: 0, mode: 'queue', budgetMs: 5_000 }).catch((error: unknown) => {
    // the change is queued: the evaluator's next tick takes it; the refresh itself succeeded
    logger.warn('alarms of a refreshed device left queued', { devicesn: path.devicesn, error: error instanceof Error ? error.message : String(error) });
  });
  return { statusCode: 200, body: refreshed };
});
