import type { Role } from '#lib/access/types';
import { normalizeAccessScope, type AccessScopeEntry } from '#lib/shared/access';
import { docRow, entity, numbers, textList, texts } from '#lib/store/entity';
import type { Item } from '#lib/store/expression';

const section = 'Account administration';
export const text = (value: unknown): string => (typeof value === 'string' ? value : '');
/** The named attributes as text, empty when absent (the audit log leaves empty texts out). */
export const orEmpty = <K extends string>(item: Item, ...names: K[]) => Object.fromEntries(names.map((name) => [name, text(item[name])])) as Record<K, string>;
export const enc = encodeURIComponent;

/** A scope is stored and answered only when it narrows: an unscoped record has no `scope` field. */
export const accessScopeField = (scope: readonly AccessScopeEntry[] | undefined): { scope?: AccessScopeEntry[] } => {
  const normal = normalizeAccessScope(scope);
  return normal.length > 0 ? { scope: normal } : {};
};
const storedScope = (item: Item): AccessScopeEntry[] | undefined => (Array.isArray(item.scope) ? (item.scope as AccessScopeEntry[]) : undefined);

export const USERS = 'USER';
export const UserEntity = /* @__PURE__ */ entity({
  type: 'User',
  key: (username: string) => ({ PK: USERS, SK: `USER#${username}` }),
  fromItem: (item) => ({ ...texts(item, 'username', 'email', 'name', 'role'), ...accessScopeField(storedScope(item)), ...texts(item, 'createdAt', 'updatedAt') }),
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
  notes: '`holders` (users and services holding it; never below the truth); `permissions` as stored (names outside the vocabulary grant nothing); built-ins `admin`, `viewer`, `operator` live in code (`lib/access/roles.ts`)' });

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
    scope: normalizeAccessScope(storedScope(item) ?? []),
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
