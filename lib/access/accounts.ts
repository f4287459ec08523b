import * as users from '#lib/access/repository/users';
import type { NewUser, User } from '#lib/access/repository/users';
import { Conflict, Invalid, Unauthorized } from '#lib/shared/errors';
import { withinGuessBudget } from './guesses';
import { hashPassword, verifyPassword } from './password';
import { passwordProblem } from './passwordPolicy';
import { storeUser } from './membership';
import { roleCatalog } from './roles';

// Sign-in and the first admin live in ./signin: they need secrets, which no other function may load.

/** 400 naming the rule a new password breaks (./passwordPolicy), before any hash is spent. */
const refuseWeak = (password: string, username: string, field: 'body.password' | 'body.newPassword'): void => {
  const problem = passwordProblem(password, username);
  if (problem) throw new Invalid(`${field} ${problem}`, [{ field, message: `${field} ${problem}` }]);
};

export const createUser = async (user: NewUser, password: string): Promise<User> => {
  refuseWeak(password, user.username, 'body.password');
  if (!(await roleCatalog.find(user.role))) {
    throw new Invalid(`body.role must be an existing role id`, [{ field: 'body.role', message: `body.role ${user.role} is not a role` }]);
  }
  if (await users.find(user.username)) throw new Conflict(`User ${user.username} already exists`);
  // the checks above spare a hash in the common case; storeUser decides under concurrency
  return storeUser(user, await hashPassword(password));
};

/**
 * Needs the current password (401 otherwise), checked inside the same guess budget as sign-in
 * (429 once spent: a stolen token does not buy unlimited guesses); every earlier token of the
 * user stops working.
 */
export const changeOwnPassword = async (username: string, currentPassword: string, newPassword: string): Promise<void> => {
  refuseWeak(newPassword, username, 'body.newPassword'); // spends no guess
  const verified = await withinGuessBudget(username, async () => {
    const credentials = await users.credentials(username);
    return credentials && (await verifyPassword(currentPassword, credentials.passwordHash)) ? credentials : undefined;
  });
  if (!verified) throw new Unauthorized('The current password is wrong');
  await users.setPassword(username, await hashPassword(newPassword));
};

export const setPassword = async (username: string, newPassword: string): Promise<void> => {
  await users.get(username); // 404 before spending a hash on an unknown user
  refuseWeak(newPassword, username, 'body.newPassword');
  await users.setPassword(username, await hashPassword(newPassword));
};
