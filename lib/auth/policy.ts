import type { Principal } from '#lib/http';
import { Conflict, Forbidden } from '#lib/errors';
import { ADMIN_ROLE } from './types';

/** An admin reads anyone; everyone else only themselves. */
export const mayReadUser = (principal: Principal, username: string): void => {
  if (principal.role !== ADMIN_ROLE && principal.username !== username) {
    throw new Forbidden('Only an admin may read another user');
  }
};

/** An admin never deletes their own account: the last admin could lock everyone out. */
export const mayDeleteUser = (principal: Principal, username: string): void => {
  if (principal.username === username) throw new Conflict('You cannot delete your own account');
};
