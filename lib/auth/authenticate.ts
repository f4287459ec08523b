import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { Authenticator, Principal } from '#lib/http';
import { revokedTokens } from '#lib/db/sessions';
import * as users from '#lib/db/users';
import { Forbidden, Unauthorized } from '#lib/errors';
import { ADMIN_ROLE } from './types';
import { bearerToken } from './tokens';
// the verifying side only: no secret, no SSM client in any bearer-protected bundle
import { publicKey, verifyAccessToken } from './verify';

export type Requirement = 'user' | 'admin';

/**
 * Bearer-token check for the account group, as one `http({ auth })` option: a valid,
 * unrevoked token issued to the user's current incarnation (not deleted and re-created, no
 * password change since; else 401), holding the required role (else 403). The role is the
 * user's current one, so a role change applies at once.
 */
export const authenticate =
  (required: Requirement): Authenticator =>
  async (event: APIGatewayProxyEvent): Promise<Principal> => {
    const token = bearerToken(event.headers?.authorization);
    const claims = await verifyAccessToken(publicKey(), token);
    const [revoked, credentials] = await Promise.all([revokedTokens.isRevoked(claims.jti), users.credentials(claims.sub)]);
    if (revoked || !credentials || !credentials.incarnation || claims.inc !== credentials.incarnation) {
      throw new Unauthorized('Invalid or expired token');
    }
    const principal = { username: credentials.user.username, role: credentials.user.role, tokenId: claims.jti, expiresAt: claims.exp };
    if (required === 'admin' && principal.role !== ADMIN_ROLE) throw new Forbidden('This operation needs the admin role');
    return principal;
  };

export const signedIn = authenticate('user');
export const adminOnly = authenticate('admin');

/** The principal of an endpoint declared with `auth`; its absence is a wiring mistake, answered 401. */
export const caller = (principal: Principal | undefined): Principal => {
  if (!principal) throw new Unauthorized();
  return principal;
};
