import http from '#generated/routes/devicesRefresh';
import { logger } from '#lib/log';
import { runEvaluation } from '#lib/alarms/evaluate';
import { mailerFromEnv } from '#lib/adapters/mail';
import { providerFromEnv } from '#lib/devices/provider';
import { secret } from '#lib/adapters/secrets';
import { refreshDevice } from '#lib/devices/sync';
import { askingWithin, evaluationBudget, providerBudget, REFRESH_TIMEOUT_MS } from '#lib/devices/refreshBudget';
import { connectionsFromEnv } from '#lib/adapters/connections';
import { enableLivePush } from '#lib/live/push';

const provider = providerFromEnv(process.env, secret);
const mailer = mailerFromEnv();
enableLivePush(connectionsFromEnv());

// POST /videoDevice/refresh/{devicesn} -> Device + refreshInfo.lastRefresh, live from the provider; 404; 422
// The device's alarms follow before the answer when time is left (lib/devices/refreshBudget.ts:
// provider + evaluation stay inside the timeout); otherwise the change stays queued for the
// evaluator's next tick.
export const handler = http(async ({ path, remainingMs }) => {
  const startedAt = Date.now();
  const left = () => remainingMs() ?? REFRESH_TIMEOUT_MS - (Date.now() - startedAt);
  const refreshed = await refreshDevice(askingWithin(provider, providerBudget(left())), path.devicesn);
  const budgetMs = evaluationBudget(left());
  if (budgetMs > 0) {
    await runEvaluation({ mailer, force: true, tickSeconds: 0, mode: 'queue', budgetMs }).catch((error: unknown) => {
      // the change is queued: the evaluator's next tick takes it; the refresh itself succeeded
      logger.warn('alarms of a refreshed device left queued', { devicesn: path.devicesn, error: error instanceof Error ? error.message : String(error) });
    });
  }
  return { statusCode: 200, body: refreshed };
});
