import { http } from '#lib/http';
import { providerFromEnv } from '#lib/devices/provider';
import { refreshDevice } from '#lib/devices/sync';
import { enableLivePush } from '#lib/live/push';
import validate from '#schemas/generated/devicesBySerialNumber';

const provider = providerFromEnv();
enableLivePush();

// POST /videoDevice/refresh/{devicesn} -> Device + refreshInfo.lastRefresh, live from the provider; 404; 422
export const handler = http<undefined, { devicesn: string }>({ validate, invalidStatus: 422 }, async ({ path }) => ({
  statusCode: 200,
  body: await refreshDevice(provider, path.devicesn),
}));
