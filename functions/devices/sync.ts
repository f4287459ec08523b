import middy from '@middy/core';
import { logger } from '#lib/log';
import { recordWork } from '#lib/observability/metrics';
import { tracing } from '#lib/observability/tracing';
import { providerFromEnv } from '#lib/devices/provider';
import { syncDevices } from '#lib/devices/sync';
import { enableLivePush } from '#lib/live/push';

const provider = providerFromEnv();
enableLivePush();

// Scheduled (rate in contracts/devices.ts): the device inventory from the provider into the table.
export const handler = middy(async () => {
  const startedAt = Date.now();
  const result = await syncDevices(provider).catch(async (error: unknown) => {
    await recordWork('sync', { SyncRuns: 1, SyncFailed: 1, SyncDuration: [Date.now() - startedAt, 'Milliseconds'] });
    throw error;
  });
  logger.info('device sync', { ...result });
  await recordWork('sync', {
    SyncRuns: 1,
    SyncFailed: 0,
    SyncDuration: [Date.now() - startedAt, 'Milliseconds'],
    DevicesChanged: result.upserted + result.removed,
    Devices: result.devices,
  });
  return result;
}).use(tracing());
