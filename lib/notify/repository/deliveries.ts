import type { DeliveryDraft, DeliveryView } from '#lib/notify/types';
import { DeliveryEntity, deliveryDueSk, deliveryLogKeys, deliveryLogPk, DELIVERIES_DUE, deliveryView } from '#lib/notify/entities';
import { expr } from '#lib/store/expression';
import { readPage, type Page } from '#lib/store/paging';
import { allShards, dueBy, pages, shardKey } from '#lib/store/query';
import { EXISTS, hasExpired, NEW, put, unexpired, type Item } from '#lib/store/table';

// One item per delivery, keyed by its deterministic id; GSI1 the channel's log, GSI2 the sharded due index (docs/adr/0091-exactly-once-deliveries.md and docs/guide/rules/alarms.md "Alarm history and due deliveries are sharded too").
const KEEP_SECONDS = 30 * 24 * 60 * 60;
const { fromItem } = DeliveryEntity;

/** A delivery read from the due index, with the index position it was read at (for `claim`). */
export type DueDelivery = ReturnType<typeof fromItem>;

type Settlement =
  | { status: 'delivered' | 'failed'; at: string; responseStatus?: number; error?: string }
  | { status: 'retrying'; at: string; nextAttemptAt: string; responseStatus?: number; error?: string };

/** A new delivery's item: due now (in the due index), or suppressed. */
const itemOf = (draft: DeliveryDraft, createdAt: string): Item =>
  DeliveryEntity.item(draft.id, {
    deliveryId: draft.id,
    notificationType: draft.digest.type,
    digest: draft.digest,
    target: draft.target,
    status: draft.status,
    attempts: 0,
    createdAt,
    expiresAt: Math.floor(Date.parse(createdAt) / 1000) + KEEP_SECONDS,
    ...(draft.target.kind === 'channel' ? deliveryLogKeys(draft.target.channelId, createdAt, draft.id) : {}),
    ...(draft.status === 'pending' ? { GSI2PK: shardKey(DELIVERIES_DUE, draft.id), GSI2SK: deliveryDueSk(createdAt, draft.id), nextAttemptAt: createdAt } : {}),
  });

/** The delivery `createIfAbsent` stored, as `due` answers it: attempted without reading the lagging due index (DESIGN §3). */
export const asStored = (draft: DeliveryDraft, createdAt: string): DueDelivery => fromItem(itemOf(draft, createdAt));

/** Stores a delivery unless one with its id exists (then false). */
export const createIfAbsent = async (draft: DeliveryDraft, createdAt: string): Promise<boolean> => put(itemOf(draft, createdAt), NEW);

/** Deliveries whose next attempt is due at `now`, earliest first (up to `limit` of every shard, merged). */
export const due = async (now: string, limit: number): Promise<DueDelivery[]> => {
  const perShard = await Promise.all(
    allShards(DELIVERIES_DUE).map(async (pk) => (await pages({ index: 'GSI2', pk, sk: dueBy(now), limit }).next()).value?.items ?? []),
  );
  const earliest = perShard.flat().sort((a, b) => (String(a.GSI2SK) < String(b.GSI2SK) ? -1 : String(a.GSI2SK) > String(b.GSI2SK) ? 1 : 0));
  return earliest.slice(0, limit).map(fromItem);
};

/** Takes a due delivery for one attempt, moving its due time to `leaseUntil` if nobody moved it since read; one sender wins. */
export const claim = async (delivery: DueDelivery, now: string, leaseUntil: string): Promise<boolean> => {
  if (!delivery.dueKey) return false;
  const change = { increment: { attempts: 1 }, set: { GSI2SK: deliveryDueSk(leaseUntil, delivery.deliveryId), lastAttemptAt: now }, init: { firstAttemptAt: now } };
  return !!(await DeliveryEntity.update(delivery.deliveryId, change, expr('#GSI2SK = :read', { read: delivery.dueKey })));
};

/** Records an attempt's outcome: done (out of the due index) or due again at `nextAttemptAt`. */
export const settle = async (id: string, outcome: Settlement): Promise<void> => {
  const next =
    outcome.status === 'retrying'
      ? { nextAttemptAt: outcome.nextAttemptAt, GSI2SK: deliveryDueSk(outcome.nextAttemptAt, id) }
      : { nextAttemptAt: undefined, GSI2PK: undefined, GSI2SK: undefined, ...(outcome.status === 'delivered' ? { deliveredAt: outcome.at } : {}) };
  const set = { status: outcome.status, settledAt: outcome.at, lastResponseStatus: outcome.responseStatus, lastError: outcome.error, ...next };
  await DeliveryEntity.update(id, { set }, EXISTS);
};

export const get = async (id: string): Promise<DueDelivery | undefined> => {
  const item = await DeliveryEntity.read(id, { consistent: true });
  return item && !hasExpired(item) ? fromItem(item) : undefined;
};

export const view = async (id: string): Promise<DeliveryView | undefined> => {
  const found = await get(id);
  return found ? deliveryView({ ...found, notificationType: found.type, createdAt: found.at }) : undefined;
};

/** A channel's deliveries, newest first, one page (expired ones left out). */
export const log = async (channelId: string, limit: number, cursor?: string): Promise<Page<DeliveryView>> =>
  readPage({ index: 'GSI1', pk: deliveryLogPk(channelId), filter: unexpired(), descending: true }, `deliveries ${channelId}`, deliveryView, limit, cursor);
