import type { Principal } from '#lib/http';
import { Conflict, Forbidden } from '#lib/errors';

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
