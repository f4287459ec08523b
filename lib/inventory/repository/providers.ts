import type { ProviderStatus } from '#lib/inventory/pure/providerStatus';
import { ProviderEntity, providerStatusItem, PROVIDERS } from '#lib/inventory/entities';
import { collection } from '#lib/store/entity';

// Provider status: one item each, written whole by the sync, read by `GET /providers`.

/** Every provider's status, read consistently (the sync that follows decides on it). */
export const all = async (): Promise<Map<string, ProviderStatus>> =>
  new Map((await collection(PROVIDERS).all({ consistent: true })).map(ProviderEntity.fromItem).map((status) => [status.name, status]));

/** The sync's write of one provider's status, whole. */
export const put = async (status: ProviderStatus): Promise<void> => {
  await ProviderEntity.put(status.name, providerStatusItem(status));
};
