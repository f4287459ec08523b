import type { AuditFilter, AuditRecord } from '#lib/access/audit/types';
import { auditBase, AuditLogEntity, AuditTargetEntity } from '#lib/access/audit/entities';
import { and, equal, expr } from '#lib/store/expression';
import { descendingPage, shardsOf, type DescendingPartition, type Page } from '#lib/store/paging';
import { lastKeyOf } from '#lib/store/query';
import { batchWrite, nowSeconds, putRequest, type Item } from '#lib/store/table';
import type { Action } from '#lib/store/transaction';

// The audit log, append-only, two sharded items per record (DESIGN §5; docs/guide/rules/access.md "Audit log keys: every filter a Query, every key sharded").

/** A record's attributes as stored: flat, so that filters can name them; empty texts are left out. */
const attributes = (record: AuditRecord, expiresAt: number): Item => {
  const { actor, target, ...rest } = record;
  const flat: Item = { ...rest, actorKind: actor.kind, actorId: actor.id, targetType: target.type, targetId: target.id, expiresAt };
  return Object.fromEntries(Object.entries(flat).filter(([, value]) => value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0)));
};

const itemsOf = (record: AuditRecord, expiresAt: number): Item[] => {
  const data = attributes(record, expiresAt);
  return [AuditLogEntity.item(record, data), AuditTargetEntity.item(record, data)];
};

/** Stores one record (both items; the puts are idempotent: the same record lands on the same keys). */
export const append = async (record: AuditRecord, expiresAt: number): Promise<void> => {
  await batchWrite(itemsOf(record, expiresAt).map(putRequest));
};

/** The record's two puts as actions of the transaction that makes the change it describes (docs/adr/0550). */
export const appendActions = (record: AuditRecord, expiresAt: number): Action[] => itemsOf(record, expiresAt).map((item) => ({ put: item }));

/** The filters compared as conditions, each on the attribute of its name (`actor` on `actorId`). */
const FILTERS = ['actor', 'actorKind', 'action', 'event', 'targetType', 'targetId'] as const;

/** The narrowest key of a filter: one target, one actor, one action, one target type, or everything. */
const keyFor = (filter: AuditFilter): { pk: string; index?: 'GSI1' | 'GSI2'; narrowed?: (typeof FILTERS)[number] } => {
  if (filter.targetId !== undefined) return { pk: auditBase.targetId(filter.targetId), index: 'GSI1', narrowed: 'targetId' };
  if (filter.actor !== undefined) return { pk: auditBase.actor(filter.actor), index: 'GSI1', narrowed: 'actor' };
  if (filter.action !== undefined) return { pk: auditBase.action(filter.action), index: 'GSI2', narrowed: 'action' };
  if (filter.targetType !== undefined) return { pk: auditBase.targetType(filter.targetType), narrowed: 'targetType' };
  return { pk: auditBase.all() };
};

/** The sharded Query of a filter: its key, the time window as the key's range, the other filters and the expiry as conditions. */
const auditQuery = (filter: AuditFilter, now: number): DescendingPartition => {
  const { narrowed, ...key } = keyFor(filter);
  const others = FILTERS.filter((name) => filter[name] !== undefined && name !== narrowed).map((name) => [name === 'actor' ? 'actorId' : name, filter[name]]);
  const condition = and(expr('#expiresAt > :now', { now }), equal(Object.fromEntries(others)))!;
  return { ...key, range: { from: filter.from ?? '0', to: lastKeyOf(filter.to ?? '9') }, filter: condition };
};

/** One page of records, newest first; the cursor holds to the filters it was answered for. */
export const query = async (filter: AuditFilter, limit: number, cursor?: string): Promise<Page<AuditRecord>> => {
  const identity = `audit ${JSON.stringify(Object.entries(filter).filter(([, value]) => value !== undefined).sort(([a], [b]) => a.localeCompare(b)))}`;
  const page = await descendingPage(shardsOf(auditQuery(filter, nowSeconds())), limit, cursor, identity);
  return { items: page.items.map(AuditLogEntity.fromItem), nextCursor: page.nextCursor };
};
