import { docRow, entity, someTexts, texts } from '#lib/store/entity';

export const IdempotencyKeyEntity = /* @__PURE__ */ entity({
  type: 'IdempotencyKey',
  key: (id: string) => ({ PK: `IDEMPOTENCY#${id}`, SK: 'IDEMPOTENCY' }),
  fromItem: (item) => ({
    ...texts(item, 'fingerprint', 'token'),
    state: item.state === 'done' ? ('done' as const) : ('pending' as const),
    leaseUntil: Number(item.leaseUntil),
    ...someTexts(item, 'result'),
    ...(item.auditPending === true ? { auditPending: true } : {}),
  }),
});
dataModel: docRow(IdempotencyKeyEntity, { section: 'Idempotency keys', name: 'Idempotency key', PK: '`IDEMPOTENCY#<sha256 of route, caller, key>`', SK: '`IDEMPOTENCY`',
  notes: '`fingerprint` (HMAC of path, query, body), `token` (the claim), `state` `pending`/`done`, `leaseUntil` (epoch ms), `result` (the first 2xx, AES-256-GCM sealed), `auditPending` (the result\'s audit record still to be written by the first replay, for a create made only by batch writes; docs/guide/rules/access.md "A change and its audit record are written in one transaction"), `expiresAt` (24 h, TTL)' });

// The audit log: two items per record, sharded by record id (docs/guide/rules/access.md "Audit log keys: every filter a Query, every key sharded").

import { expr } from '#lib/store/expression';
import { nowSeconds } from '#lib/store/table';

// Idempotency keys, one item per (route, caller, key) hash (docs/adr/0161).
/** `leaseUntil`: epoch ms a pending claim is its request's; `result`: the sealed first 2xx; `auditPending`: its audit record still to store. */
type KeyRecord = ReturnType<typeof IdempotencyKeyEntity.fromItem>;

/** Claims a key: true when no live record held it (none, expired, a lapsed claim of the same request). */
export const claim = async (id: string, record: KeyRecord, expiresAt: number): Promise<boolean> =>
  IdempotencyKeyEntity.put(
    id,
    { ...record, expiresAt },
    expr('attribute_not_exists(PK) OR #expiresAt <= :now OR (#state = :pending AND #leaseUntil <= :nowMs AND #fingerprint = :fingerprint)', {
      now: nowSeconds(),
      pending: 'pending',
      nowMs: Date.now(),
      fingerprint: record.fingerprint,
    }),
  );

/** The live record of a key (strongly consistent: a claim a moment ago is seen), or undefined. */
export const read = async (id: string): Promise<KeyRecord | undefined> => {
  const item = await IdempotencyKeyEntity.read(id, { consistent: true });
  return !item || Number(item.expiresAt) <= nowSeconds() ? undefined : IdempotencyKeyEntity.fromItem(item);
};

/** Keeps the result of the claim `token` made (a claim taken over since keeps its own), marked when its audit record is still to be stored. */
export const complete = async (id: string, token: string, result: string, auditPending = false): Promise<void> => {
  await IdempotencyKeyEntity.update(id, { set: { state: 'done', result, ...(auditPending ? { auditPending: true } : {}) } }, expr('#token = :token', { token }));
};

/** The kept result's audit record is stored now (a replay stored it). */
export const audited = async (id: string): Promise<void> => {
  await IdempotencyKeyEntity.update(id, { remove: ['auditPending'] }, 'attribute_exists(#auditPending)');
};

/** Lets go of the pending claim `token` made, so that a retry runs again. */
export const release = async (id: string, token: string): Promise<void> => {
  await IdempotencyKeyEntity.remove(id, expr('#token = :token AND #state = :pending', { token, pending: 'pending' }));
};
