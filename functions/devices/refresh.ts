import http from '#generated/routes/devicesRefresh';
import { nudgeEvaluation } from '#lib/adapters/nudge';
import { secret } from '#lib/adapters/secrets';
import { fleetProvider, providersFromEnv } from '#lib/inventory';
import { refreshDevice } from '#lib/inventory';
import { askingWithin, providerBudget, REFRESH_TIMEOUT_MS } from '#lib/inventory';
import { connectionsFromEnv } from '#lib/adapters/connections';
import { enableLivePush } from '#lib/live';
import { withDeviceMaintenance } from '#lib/maintenance/marks';

// the device's own vendor answers (DEVICE_PROVIDERS; secrets from SSM in AWS)
const provider = fleetProvider(providersFromEnv(process.env, secret));
enableLivePush(connectionsFromEnv());

// POST /videoDevice/refresh/{devicesn} -> Device + refreshInfo.lastRefresh, live from the provider; 404 (also outside the caller's scope, before any provider is asked); 422
// The device's alarms follow seconds later: the refresh queued the change, and the nudge asks the
// queue evaluator to run now (lib/adapters/nudge.ts; a failed nudge leaves it to the scheduled one).
export const handler = http(async ({ path, context, principal }) => {
  const startedAt = Date.now();
  // the Lambda context's time left; without one (a direct call), the function's timeout from the start
  const left = () => context?.getRemainingTimeInMillis?.() ?? REFRESH_TIMEOUT_MS - (Date.now() - startedAt);
  const refreshed = await refreshDevice(askingWithin(provider, providerBudget(left())), path.devicesn, principal.scope);
  await nudgeEvaluation('refresh');
  const [answer] = await withDeviceMaintenance([refreshed]); // inMaintenance while a window holds it (docs/guide/rules/maintenance.md "Devices and rooms show in maintenance at read time, the windows named with their end")
  return { statusCode: 200, body: answer! };
});
