import { loginFailures } from '#lib/db/sessions';
import { roles } from '#lib/db/roles';
import { users, type NewUser, type User } from '#lib/db/users';
import { Conflict, Invalid, TooManyRequests, Unauthorized } from '#lib/errors';
import { tokenKey } from './keys';
import { lockedForSeconds, lockoutPolicy } from './lockout';
import { hashPassword, verifyAgainstNothing, verifyPassword } from './password';
import { ADMIN_ROLE, builtInRole } from './roles';
import { secret } from './secrets';
import { ACCESS_TOKEN_SECONDS, issueAccessToken } from './tokens';

export interface SignInAnswer {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  user: User;
}

// One body for an unknown user and a wrong password: nothing tells them apart.
const INVALID_CREDENTIALS = 'Invalid username or password';

export const adminUsername = (): string => process.env.ADMIN_USERNAME || 'admin';

/**
 * The first admin, from ADMIN_USERNAME / ADMIN_PASSWORD (or the SSM parameter named by
 * ADMIN_PASSWORD_PARAM), created if absent. Answers whether it was created; never touches
 * an existing user, so changing ADMIN_PASSWORD later does not reset anything.
 */
export const ensureFirstAdmin = async (): Promise<'created' | 'exists' | 'unconfigured'> => {
  const username = adminUsername();
  if (await users.find(username)) return 'exists';
  const password = await secret('ADMIN_PASSWORD');
  if (!password) return 'unconfigured';
  const admin: NewUser = { username, email: `${username}@localhost`, name: 'Administrator', role: ADMIN_ROLE };
  try {
    await users.create(admin, await hashPassword(password));
  } catch (error) {
    if (error instanceof Conflict) return 'exists'; // another container won the race
    throw error;
  }
  return 'created';
};

export const signIn = async (username: string, password: string): Promise<SignInAnswer> => {
  const policy = lockoutPolicy();
  const wait = lockedForSeconds(await loginFailures.get(username), policy.maxFailures);
  if (wait > 0) throw new TooManyRequests('Too many failed sign-ins; try again later', wait);

  let credentials = await users.credentials(username);
  if (!credentials && username === adminUsername() && (await ensureFirstAdmin()) === 'created') {
    credentials = await users.credentials(username);
  }
  const valid = credentials ? await verifyPassword(password, credentials.passwordHash) : await verifyAgainstNothing(password);
  if (!credentials || !valid) {
    await loginFailures.record(username, policy.windowSeconds);
    throw new Unauthorized(INVALID_CREDENTIALS);
  }
  await loginFailures.clear(username);
  const { token } = await issueAccessToken(await tokenKey(), credentials.user);
  return { accessToken: token, tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_SECONDS, user: credentials.user };
};

export const createUser = async (user: NewUser, password: string): Promise<User> => {
  if (!(await roles.find(user.role))) {
    throw new Invalid(`body.role must be an existing role id`, [{ field: 'body.role', message: `body.role ${user.role} is not a role` }]);
  }
  if (await users.find(user.username)) throw new Conflict(`User ${user.username} already exists`);
  return users.create(user, await hashPassword(password));
};

/** Needs the current password (401 otherwise); every earlier token of the user stops working. */
export const changeOwnPassword = async (username: string, currentPassword: string, newPassword: string): Promise<void> => {
  const credentials = await users.credentials(username);
  if (!credentials || !(await verifyPassword(currentPassword, credentials.passwordHash))) {
    throw new Unauthorized('The current password is wrong');
  }
  await users.setPassword(username, await hashPassword(newPassword));
};

export const setPassword = async (username: string, newPassword: string): Promise<void> => {
  await users.get(username); // 404 before spending a hash on an unknown user
  await users.setPassword(username, await hashPassword(newPassword));
};

/** Built-in roles and roles some user still holds stay (409). */
export const deleteRole = async (roleid: string): Promise<void> => {
  if (builtInRole(roleid)) throw new Conflict(`Role ${roleid} is built in and cannot be deleted`);
  await roles.get(roleid);
  if (await users.anyWithRole(roleid)) throw new Conflict(`Role ${roleid} is still assigned to users`);
  await roles.remove(roleid);
};
