import http from '#generated/routes/devicesRefresh';
import { logger } from '#lib/shared/log';
import { runQueue } from '#lib/alarms/engine';
import { mailerFromEnv } from '#lib/adapters/mail';
import { secret } from '#lib/adapters/secrets';
import { fleetProvider, providersFromEnv } from '#lib/inventory';
import { refreshDevice } from '#lib/inventory';
import { askingWithin, evaluationBudget, providerBudget, REFRESH_TIMEOUT_MS } from '#lib/inventory';
import { connectionsFromEnv } from '#lib/adapters/connections';
import { enableLivePush } from '#lib/live';
import { withDeviceMaintenance } from '#lib/maintenance/marks';

// the device's own vendor answers (DEVICE_PROVIDERS; secrets from SSM in AWS)
const provider = fleetProvider(providersFromEnv(process.env, secret));
const mailer = mailerFromEnv();
enableLivePush(connectionsFromEnv());

// POST /videoDevice/refresh/{devicesn} -> Device + refreshInfo.lastRefresh, live from the provider; 404 (also outside the caller's scope, before any provider is asked); 422
// The device's alarms follow before the answer when time is left (lib/inventory/refreshBudget.ts:
// provider + evaluation stay inside the timeout); otherwise the change stays queued for the
// evaluator's next tick.
export const handler = http(async ({ path, context, principal }) => {
  const startedAt = Date.now();
  // the Lambda context's time left; without one (a direct call), the function's timeout from the start
  const left = () => context?.getRemainingTimeInMillis?.() ?? REFRESH_TIMEOUT_MS - (Date.now() - startedAt);
  const refreshed = await refreshDevice(askingWithin(provider, providerBudget(left())), path.devicesn, principal.scope);
  const budgetMs = evaluationBudget(left());
  if (budgetMs > 0) {
    await runQueue({ mailer, budgetMs }).catch((error: unknown) => {
      // the change is queued: the evaluator's next tick takes it; the refresh itself succeeded
      logger.warn('alarms of a refreshed device left queued', { devicesn: path.devicesn, error: error instanceof Error ? error.message : String(error) });
    });
  }
  const [answer] = await withDeviceMaintenance([refreshed]); // inMaintenance while a window holds it (docs/guide/rules/maintenance.md "Devices and rooms show in maintenance at read time, the windows named with their end")
  return { statusCode: 200, body: answer! };
});
