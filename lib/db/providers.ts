import type { ProviderStatus } from '#lib/inventory/pure/providerStatus';
import { Provider, PROVIDERS } from '#lib/store/entities/config';
import { collection } from '#lib/store/entity';

/*
 * One item per device provider in one small partition (a handful of providers): written whole by
 * the sync after each run (the sync's lease keeps runs apart), read whole by `GET /providers`.
 */

/** Every provider's status, read consistently (the sync that follows decides on it). */
export const all = async (): Promise<Map<string, ProviderStatus>> =>
  new Map((await collection(PROVIDERS).all({ consistent: true })).map(Provider.fromItem).map((status) => [status.name, status]));

export const put = async (status: ProviderStatus): Promise<void> => {
  await Provider.put(status.name, { ...status });
};
