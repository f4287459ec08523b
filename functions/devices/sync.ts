import { logger } from '#lib/log';
import { providerFromEnv } from '#lib/devices/provider';
import { syncDevices } from '#lib/devices/sync';
import { enableLivePush } from '#lib/live/push';

const provider = providerFromEnv();
enableLivePush();

// Scheduled (rate in routes.yml): the device inventory from the provider into the table.
export const handler = async () => {
  const result = await syncDevices(provider);
  logger.info('device sync', { ...result });
  return result;
};
