import type { Role } from '#lib/auth/types';
import { normalizeScope, type ScopeEntry } from '#lib/shared/access';
import { AUDIT_EVENTS, type AuditEvent, type AuditRecord } from '#lib/shared/audit';
import { docRow, entity, numbers, someTexts, textList, texts } from '../entity';
import type { Item } from '../expression';
import { shardKey } from '../query';

const section = 'Account administration';
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
/** The named attributes as text, empty when absent (the audit log leaves empty texts out). */
const orEmpty = <K extends string>(item: Item, ...names: K[]) => Object.fromEntries(names.map((name) => [name, text(item[name])])) as Record<K, string>;
const enc = encodeURIComponent;

/** A scope is stored and answered only when it narrows: an unscoped record has no `scope` field. */
export const scopeField = (scope: readonly ScopeEntry[] | undefined): { scope?: ScopeEntry[] } => {
  const normal = normalizeScope(scope);
  return normal.length > 0 ? { scope: normal } : {};
};
const storedScope = (item: Item): ScopeEntry[] | undefined => (Array.isArray(item.scope) ? (item.scope as ScopeEntry[]) : undefined);

export const USERS = 'USER';
export const UserEntity = /* @__PURE__ */ entity({
  type: 'User',
  key: (username: string) => ({ PK: USERS, SK: `USER#${username}` }),
  fromItem: (item) => ({ ...texts(item, 'username', 'email', 'name', 'role'), ...scopeField(storedScope(item)), ...texts(item, 'createdAt', 'updatedAt') }),
});
dataModel: docRow(UserEntity, { section, PK: '`USER`', SK: '`USER#<username>`', GSI1: '`USER_ROLE#<roleid>` / `USER#<username>`',
  notes: '`passwordHash`, `incarnation` (random, new at creation and every password change; tokens carry it) never leave `lib/`' });
export const userRoleKeys = (role: string, username: string) => ({ GSI1PK: `USER_ROLE#${role}`, GSI1SK: `USER#${username}` });

export const ROLES = 'ROLE';
export const CreatedRoleEntity = /* @__PURE__ */ entity({
  type: 'Role',
  key: (roleid: string) => ({ PK: ROLES, SK: `ROLE#${roleid}` }),
  fromItem: (item): Role => ({
    ...texts(item, 'roleid', 'name'),
    description: String(item.description ?? ''),
    permissions: textList(item.permissions),
    builtIn: false,
    ...texts(item, 'createdAt', 'updatedAt'),
  }),
});
dataModel: docRow(CreatedRoleEntity, { section, name: 'Role (created)', PK: '`ROLE`', SK: '`ROLE#<roleid>`',
  notes: '`holders` (users and services holding it; never below the truth); `permissions` as stored (names outside the vocabulary grant nothing); built-ins `admin`, `viewer`, `operator` live in code (`lib/auth/roles.ts`)' });

export const AdminCountEntity = /* @__PURE__ */ entity({
  type: 'AdminCount',
  key: (_: void) => ({ PK: 'ADMINS', SK: 'COUNT' }),
  fromItem: (item) => Number(item.count),
});
dataModel: docRow(AdminCountEntity, { section, name: 'Admin count', PK: '`ADMINS`', SK: '`COUNT`', notes: '`count` (unscoped admins; never above the truth); exists once the store had its first admin' });

export const SERVICES = 'SERVICE';
export const ServiceEntity = /* @__PURE__ */ entity({
  type: 'Service',
  key: (id: string) => ({ PK: SERVICES, SK: `SERVICE#${id}` }),
  fromItem: (item) => ({
    ...texts(item, 'id', 'name'),
    description: String(item.description ?? ''),
    url: String(item.url),
    active: item.active === true,
    role: String(item.role ?? 'viewer'),
    scope: normalizeScope(storedScope(item) ?? []),
    ...texts(item, 'createdAt', 'updatedAt'),
  }),
});
dataModel: docRow(ServiceEntity, { section, PK: '`SERVICE`', SK: '`SERVICE#<uuid>`',
  notes: '`role`, `scope`; `secretHash` (`sha256$…` of the client secret) and `incarnation` (random, new at registration, rotation and deactivation; service tokens carry it) never leave `lib/`' });

export const RevokedTokenEntity = /* @__PURE__ */ entity({
  type: 'RevokedToken',
  key: (jti: string) => ({ PK: `REVOKED#${jti}`, SK: 'REVOKED' }),
  fromItem: (item) => Number(item.expiresAt),
});
dataModel: docRow(RevokedTokenEntity, { section, name: 'Revoked token', PK: '`REVOKED#<jti>`', SK: '`REVOKED`', notes: '`expiresAt` = token `exp`' });

export const LoginFailuresEntity = /* @__PURE__ */ entity({
  type: 'LoginFailures',
  key: (username: string) => ({ PK: `LOGIN_FAILURES#${username}`, SK: 'LOGIN_FAILURES' }),
  fromItem: (item) => numbers(item, 'count', 'expiresAt'),
});
dataModel: docRow(LoginFailuresEntity, { section, name: 'Password guesses', PK: '`LOGIN_FAILURES#<username>`', SK: '`LOGIN_FAILURES`', notes: '`count` (slots taken), `expiresAt` = end of the 15-minute window' });

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
