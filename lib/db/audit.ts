import { AUDIT_EVENTS, type AuditEvent, type AuditFilter, type AuditRecord } from '#lib/shared/audit';
import { batchWrite, type Item } from './helpers';
import type { Page } from './pages';
import { queryShardsDescending, shardKey, type ShardedIndex } from './shards';

/*
 * The audit log (DESIGN §5; docs/data-model.md "Audit log"; docs/adr/0212). Append-only: nothing
 * here updates or deletes a record; TTL (`expiresAt`) removes it after AUDIT_RETENTION_DAYS and
 * readers treat an expired one as absent. Each record is two items, so that every filter is the
 * key of a Query:
 *   everything   PK   AUDIT#ALL#<n>                    SK     <at>#<id>
 *   by actor     GSI1 AUDIT#ACTOR#<actor id>#<n>        GSI1SK <at>#<id>
 *   by action    GSI2 AUDIT#ACTION#<action>#<n>         GSI2SK <at>#<id>
 *   by target    PK   AUDIT#TARGET#<target type>#<n>    SK     <at>#<id>
 *   by target id GSI1 AUDIT#TARGETID#<target id>#<n>    GSI1SK <at>#<id>   (second item; when the target has an id)
 * Every key is sharded (lib/db/shards.ts, n = hash of the record id): a burst of changes, a
 * script acting on a thousand records or a password-guessing storm on one user, spreads over
 * the shards instead of landing on one partition. Sort keys start with the time, so from/to is a
 * key condition and newest-first the index order; a page asks each shard for its newest below
 * the cursor. Filters the key does not narrow are conditions within that key.
 */
const enc = encodeURIComponent;
const P = 'AUDIT';

const sortKey = (record: Pick<AuditRecord, 'at' | 'id'>) => `${record.at}#${record.id}`;

/** A record's attributes as stored: flat, so that filters can name them; empty texts are left out. */
const attributes = (record: AuditRecord, expiresAt: number): Item => {
  const { actor, target, ...rest } = record;
  const flat: Item = { ...rest, actorKind: actor.kind, actorId: actor.id, targetType: target.type, targetId: target.id, expiresAt };
  return Object.fromEntries(Object.entries(flat).filter(([, value]) => value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0)));
};

const items = (record: AuditRecord, expiresAt: number): Item[] => {
  const sk = sortKey(record);
  const data = { type: 'AuditRecord', ...attributes(record, expiresAt) };
  return [
    {
      PK: shardKey(`${P}#ALL`, record.id),
      SK: sk,
      GSI1PK: shardKey(`${P}#ACTOR#${enc(record.actor.id)}`, record.id),
      GSI1SK: sk,
      GSI2PK: shardKey(`${P}#ACTION#${enc(record.action)}`, record.id),
      GSI2SK: sk,
      ...data,
    },
    {
      PK: shardKey(`${P}#TARGET#${enc(record.target.type)}`, record.id),
      SK: sk,
      ...(record.target.id === undefined ? {} : { GSI1PK: shardKey(`${P}#TARGETID#${enc(record.target.id)}`, record.id), GSI1SK: sk }),
      ...data,
    },
  ];
};

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

const fromItem = (item: Item): AuditRecord => ({
  id: text(item.id),
  at: text(item.at),
  event: (AUDIT_EVENTS as readonly string[]).includes(text(item.event)) ? (item.event as AuditEvent) : 'change',
  actor: { kind: item.actorKind === 'service' || item.actorKind === 'api-key' ? item.actorKind : 'user', id: text(item.actorId) },
  action: text(item.action),
  target: { type: text(item.targetType), ...(typeof item.targetId === 'string' ? { id: item.targetId } : {}) },
  status: Number(item.status),
  fields: Array.isArray(item.fields) ? item.fields.map(String) : [],
  requestId: text(item.requestId),
  sourceIp: text(item.sourceIp),
  userAgent: text(item.userAgent),
  ...(typeof item.reason === 'string' ? { reason: item.reason } : {}),
});

/** Stores one record (both items; the puts are idempotent: the same record lands on the same keys). */
export const append = async (record: AuditRecord, expiresAt: number): Promise<void> => {
  await batchWrite(items(record, expiresAt).map((Item) => ({ PutRequest: { Item } })));
};

type Narrowing = 'actor' | 'action' | 'targetType' | 'targetId';
/** The stored attribute each filter compares. */
const ATTRIBUTE: Record<Exclude<keyof AuditFilter, 'from' | 'to'>, string> = {
  actor: 'actorId',
  actorKind: 'actorKind',
  action: 'action',
  event: 'event',
  targetType: 'targetType',
  targetId: 'targetId',
};

/** The narrowest key of a filter: one target, one actor, one action, one target type, or everything. */
const keyFor = (filter: AuditFilter): { base: string; index?: 'GSI1' | 'GSI2'; narrowed?: Narrowing } => {
  if (filter.targetId !== undefined) return { base: `${P}#TARGETID#${enc(filter.targetId)}`, index: 'GSI1', narrowed: 'targetId' };
  if (filter.actor !== undefined) return { base: `${P}#ACTOR#${enc(filter.actor)}`, index: 'GSI1', narrowed: 'actor' };
  if (filter.action !== undefined) return { base: `${P}#ACTION#${enc(filter.action)}`, index: 'GSI2', narrowed: 'action' };
  if (filter.targetType !== undefined) return { base: `${P}#TARGET#${enc(filter.targetType)}`, narrowed: 'targetType' };
  return { base: `${P}#ALL` };
};

/** The sharded Query of a filter: its key, the time window as the key's range, the other filters and the expiry as conditions. */
export const auditQuery = (filter: AuditFilter, nowSeconds: number): ShardedIndex => {
  const { base, index, narrowed } = keyFor(filter);
  const names: Record<string, string> = { '#expires': 'expiresAt' };
  const values: Record<string, unknown> = { ':now': nowSeconds };
  const terms = ['#expires > :now'];
  (Object.keys(ATTRIBUTE) as (keyof typeof ATTRIBUTE)[])
    .filter((name) => filter[name] !== undefined && name !== narrowed)
    .forEach((name, i) => {
      names[`#f${i}`] = ATTRIBUTE[name];
      values[`:f${i}`] = filter[name];
      terms.push(`#f${i} = :f${i}`);
    });
  return {
    base,
    ...(index ? { index } : {}),
    range: { from: filter.from ?? '0', to: `${filter.to ?? '9'}#\uffff` },
    FilterExpression: terms.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
};

/** One page of records, newest first; the cursor holds to the filters it was answered for. */
export const query = async (filter: AuditFilter, limit: number, cursor?: string, now = Date.now()): Promise<Page<AuditRecord>> => {
  const identity = `audit ${JSON.stringify(Object.entries(filter).filter(([, value]) => value !== undefined).sort(([a], [b]) => a.localeCompare(b)))}`;
  const page = (await queryShardsDescending(auditQuery(filter, Math.floor(now / 1000)), { limit, ...(cursor === undefined ? {} : { cursor }) }, identity)) as Page<Item>;
  return { items: page.items.map(fromItem), nextCursor: page.nextCursor };
};
