import { AUDIT_EVENTS, type AuditEvent, type AuditRecord } from '#lib/access/audit/types';
import { docRow, entity, someTexts, textList } from '#lib/store/entity';
import type { Item } from '#lib/store/expression';
import { shardKey } from '#lib/store/query';
import { text, orEmpty, enc } from '#lib/access/entities';

const audit = 'Audit log';
const AUDIT_NOTES = '`id, at, event, actorKind, actorId, action, targetType, targetId?, status, fields?, requestId, sourceIp?, userAgent?, reason?, expiresAt` (empty texts and lists left out)';
/** The unsharded partition of each audit filter; `shardKey` of the record id picks the shard. */
export const auditBase = {
  all: () => 'AUDIT#ALL',
  actor: (actorId: string) => `AUDIT#ACTOR#${enc(actorId)}`,
  action: (action: string) => `AUDIT#ACTION#${enc(action)}`,
  targetType: (type: string) => `AUDIT#TARGET#${enc(type)}`,
  targetId: (id: string) => `AUDIT#TARGETID#${enc(id)}`,
};
const auditSk = (record: Pick<AuditRecord, 'at' | 'id'>) => `${record.at}#${record.id}`;
const auditRecord = (item: Item): AuditRecord => ({
  ...orEmpty(item, 'id', 'at'),
  event: (AUDIT_EVENTS as readonly string[]).includes(text(item.event)) ? (item.event as AuditEvent) : 'change',
  actor: { kind: item.actorKind === 'service' || item.actorKind === 'api-key' ? item.actorKind : 'user', id: text(item.actorId) },
  action: text(item.action),
  target: { type: text(item.targetType), ...(typeof item.targetId === 'string' ? { id: item.targetId } : {}) },
  status: Number(item.status),
  fields: textList(item.fields),
  ...orEmpty(item, 'requestId', 'sourceIp', 'userAgent'),
  ...someTexts(item, 'reason'),
});
export const AuditLogEntity = /* @__PURE__ */ entity({
  type: 'AuditRecord',
  key: (record: AuditRecord) => ({
    PK: shardKey(auditBase.all(), record.id),
    SK: auditSk(record),
    GSI1PK: shardKey(auditBase.actor(record.actor.id), record.id),
    GSI1SK: auditSk(record),
    GSI2PK: shardKey(auditBase.action(record.action), record.id),
    GSI2SK: auditSk(record),
  }),
  fromItem: auditRecord,
});
dataModel: docRow(AuditLogEntity, {
  section: audit, name: 'Audit record, log item', PK: '`AUDIT#ALL#<n>`', SK: '`<at>#<id>`', GSI1: '`AUDIT#ACTOR#<actor id>#<n>` / `<at>#<id>`', GSI2: '`AUDIT#ACTION#<action>#<n>` / `<at>#<id>`',
  notes: AUDIT_NOTES,
});
export const AuditTargetEntity = /* @__PURE__ */ entity({
  type: 'AuditRecord',
  key: (record: AuditRecord) => ({
    PK: shardKey(auditBase.targetType(record.target.type), record.id),
    SK: auditSk(record),
    ...(record.target.id === undefined ? {} : { GSI1PK: shardKey(auditBase.targetId(record.target.id), record.id), GSI1SK: auditSk(record) }),
  }),
  fromItem: auditRecord,
});
dataModel: docRow(AuditTargetEntity, {
  section: audit, name: 'Audit record, target item', PK: '`AUDIT#TARGET#<target type>#<n>`', SK: '`<at>#<id>`', GSI1: '`AUDIT#TARGETID#<target id>#<n>` / `<at>#<id>` (only with a target id)',
  notes: 'the same attributes',
});
