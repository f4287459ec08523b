import http from '#generated/routes/devicesRefresh';
import { providerFromEnv } from '#lib/devices/provider';
import { refreshDevice } from '#lib/devices/sync';
import { enableLivePush } from '#lib/live/push';

const provider = providerFromEnv();
enableLivePush();

// POST /videoDevice/refresh/{devicesn} -> Device + refreshInfo.lastRefresh, live from the provider; 404; 422
export const handler = http(async ({ path }) => ({
  statusCode: 200,
  body: await refreshDevice(provider, path.devicesn),
}));
