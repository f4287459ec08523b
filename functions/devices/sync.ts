import { logger } from '#lib/log';
import { providerFromEnv } from '#lib/devices/provider';
import { syncDevices } from '#lib/devices/sync';

const provider = providerFromEnv();

// Scheduled (rate in contracts/devices.ts): the device inventory from the provider into the table.
export const handler = async () => {
  const result = await syncDevices(provider);
  logger.info('device sync', { ...result });
  return result;
};
