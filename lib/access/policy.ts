import type { Principal } from '#lib/http/index';
import { Conflict, Forbidden } from '#lib/shared/errors';

/** An admin (the admin permission, unscoped) reads anyone; everyone else only themselves. */
export const mayReadUser = (principal: Principal, username: string): void => {
  const admin = principal.permissions.includes('admin') && principal.scope.length === 0;
  if (!admin && (principal.kind !== 'user' || principal.username !== username)) {
    throw new Forbidden('Only an admin may read another user');
  }
};

/** An admin never deletes their own account: the last admin could lock everyone out. */
export const mayDeleteUser = (principal: Principal, username: string): void => {
  if (principal.username === username) throw new Conflict('You cannot delete your own account');
};

/** The 403 of a user's own-account route (me, own password) called with a registered service's token. */
export const SERVICE_HAS_NO_ACCOUNT = 'A registered service has no user account: sign in as a user';

/**
 * The own-account routes act on the user the token names: a service's token names a service id,
 * which must never be taken for a username (a user of that name, its guess budget, its password).
 */
export const requireUser = (principal: Principal): void => {
  if (principal.kind !== 'user') throw new Forbidden(SERVICE_HAS_NO_ACCOUNT);
};
