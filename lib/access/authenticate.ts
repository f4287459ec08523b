import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { Authenticator, Principal } from '#lib/http/index';
import { revokedTokens } from '#lib/access/repository/sessions';
import * as users from '#lib/access/repository/users';
import { serviceCredentials } from '#lib/access/repository/services';
import { Forbidden, Unauthorized } from '#lib/shared/errors';
import { API_KEY_PERMISSIONS, isUnscoped, UNSCOPED_ONLY, type AccessScope, type Permission, type Requirement } from '#lib/shared/access';
import { permissionsOf } from './rolePermissions';
import type { AuditLog } from '#lib/http/contract';
import { logger } from '#lib/shared/log';
import { AUDIT_UNAVAILABLE, appendOrUnavailable, authEventEntry } from '#lib/access/audit/types';
import { bearerToken, type AccessClaims } from './tokens';
// the verifying side only: no secret, no SSM client in any bearer-protected bundle
import { publicKey, verifyAccessToken } from './verify';

/**
 * Who acts, and may they (DESIGN §5), as one `http({ auth })` option generated from the route's
 * contract. A bearer token names a user or a registered service: valid, unrevoked, issued to
 * its current incarnation (user not re-created, no password change since; service not rotated)
 * and, for a service, still active; else 401. Its role, permissions and scope are read from the
 * store at every request, so a changed role or scope applies from the next request on. Without
 * a token, ACCESS_MODE=key lets the API key act as `api-key` (every permission but admin,
 * unscoped); ACCESS_MODE=user (the default, and deployed stages') answers 401.
 */

type AccessMode = 'key' | 'user';

/** ACCESS_MODE of the stage; anything but `key` is `user`, so a typo never opens the API. */
const accessMode = (): AccessMode => (process.env.ACCESS_MODE === 'key' ? 'key' : 'user');

const API_KEY_PRINCIPAL: Principal = Object.freeze({
  kind: 'api-key',
  username: 'api-key',
  role: 'api-key',
  permissions: API_KEY_PERMISSIONS,
  scope: [],
});

const refused = () => new Unauthorized('Invalid or expired token');

/** Why a well-signed token no longer holds (the audit log's `reason` of token-revoked). */
type Refusal = 'revoked' | 'superseded' | 'inactive' | 'gone';

/** Where a request's authentication events go: the audit log of an audited route (its function may write it). */
interface AuthEventSink {
  request: APIGatewayProxyEvent;
  log: AuditLog;
}

/**
 * A well-signed token refused: recorded in the audit log as token-revoked when the function may
 * write it, else logged (read-only functions hold no write permission: docs/guide/rules/access.md "Refused tokens are recorded by functions that may write; read-only ones log them"). Then the
 * same 401 as any bad token.
 */
const refuse = async (claims: AccessClaims, reason: Refusal, record: AuthEventSink | undefined): Promise<never> => {
  const actor = { kind: claims.kind === 'service' ? 'service' : 'user', id: claims.sub } as const;
  const facts = { event: 'token-revoked', actor, target: { type: actor.kind, id: actor.id }, status: 401, reason } as const;
  if (record) await appendOrUnavailable(record.log, authEventEntry(record.request, facts), AUDIT_UNAVAILABLE);
  else logger.warn('token refused', { event: facts.event, actor, reason });
  throw refused();
};

/** Who a verified token names, as stored now, or why it no longer names anyone. */
const holderOf = async (
  claims: AccessClaims,
): Promise<{ username: string; role: string; scope: AccessScope; incarnation: string } | 'gone' | 'inactive'> => {
  if (claims.kind === 'service') {
    const found = await serviceCredentials(claims.sub);
    if (!found) return 'gone';
    if (!found.service.active) return 'inactive';
    return { username: found.service.id, role: found.service.role, scope: found.service.scope, incarnation: found.incarnation };
  }
  const found = await users.credentials(claims.sub);
  if (!found) return 'gone';
  return { username: found.user.username, role: found.user.role, scope: found.user.scope ?? [], incarnation: found.incarnation };
};

/**
 * The principal a bearer token names, read fresh from the store; 401 when the token no longer
 * holds. `record`: the request and the audit log, when its function records authentication events.
 */
export const principalOfToken = async (header: string | undefined, record?: AuthEventSink): Promise<Principal> => {
  const claims = await verifyAccessToken(publicKey(), bearerToken(header));
  const [revoked, holder] = await Promise.all([revokedTokens.isRevoked(claims.jti), holderOf(claims)]);
  if (revoked) return refuse(claims, 'revoked', record);
  if (typeof holder === 'string') return refuse(claims, holder, record);
  if (!holder.incarnation || holder.incarnation !== claims.inc) return refuse(claims, 'superseded', record);
  const { username, role, scope } = holder;
  const kind = claims.kind === 'service' ? 'service' : 'user';
  return { kind, username, role, permissions: await permissionsOf(role), scope, tokenId: claims.jti, expiresAt: claims.exp };
};

/** 403 unless the principal holds the permission (and, for fleet-wide ones, is unscoped). */
const requirePermission = (principal: Principal, permission: Permission): void => {
  if (!principal.permissions.includes(permission)) {
    throw new Forbidden(permission === 'admin' ? 'This operation needs the admin role' : `This operation needs the ${permission} permission`);
  }
  if (UNSCOPED_ONLY.includes(permission) && !isUnscoped(principal.scope)) {
    throw new Forbidden(`This operation needs the ${permission} permission over the whole fleet; the caller is scoped`);
  }
};

/**
 * ACCESS_MODE=key, on a route the API key may act on: a valid token narrows to its principal; no
 * token, or one that no longer holds, names nobody and the API key acts (it could act without
 * the token anyway, so a refused token gains nothing).
 */
const keyModePrincipal = async (header: string | undefined, record: AuthEventSink | undefined): Promise<Principal> => {
  if (!header) return API_KEY_PRINCIPAL;
  try {
    return await principalOfToken(header, record);
  } catch (error) {
    if (error instanceof Unauthorized) return API_KEY_PRINCIPAL;
    throw error;
  }
};

/**
 * The authenticator of a route needing `required`: `signed-in` needs a bearer token of any
 * principal; a permission needs a principal holding it (the API key's own in ACCESS_MODE=key).
 */
export const authorize =
  (required: Exclude<Requirement, 'public'>): Authenticator =>
  async (event: APIGatewayProxyEvent, options: { auditLog?: AuditLog } = {}): Promise<Principal> => {
    const header = event.headers?.authorization;
    const record = options.auditLog ? { request: event, log: options.auditLog } : undefined;
    if (required === 'signed-in') return principalOfToken(header, record);
    const keyActs = accessMode() === 'key' && API_KEY_PERMISSIONS.includes(required);
    const principal = keyActs ? await keyModePrincipal(header, record) : await principalOfToken(header, record);
    requirePermission(principal, required);
    return principal;
  };
