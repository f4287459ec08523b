import { loginFailures } from '#lib/db/sessions';
import { users, type NewUser, type User } from '#lib/db/users';
import { Conflict, TooManyRequests, Unauthorized } from '#lib/errors';
import { lockedForSeconds, lockoutPolicy } from './lockout';
import { hashPassword, verifyAgainstNothing, verifyPassword } from './password';
import { ADMIN_ROLE } from './roles';
import { issueAccessToken, privateKey } from './sign';
import { ACCESS_TOKEN_SECONDS } from './tokens';

/**
 * Sign-in and the first admin: the only account code that reads secrets (the token's
 * private key, the first admin's password), through the `SecretSource` its caller hands in
 * (lib/adapters/secrets.ts: environment, else SSM), so only the sign-in function bundles the
 * SSM client (DESIGN §8). Everything else in the account group verifies with the public key.
 */

/** The value of a named secret, or undefined when it is not configured. */
export type SecretSource = (name: string) => Promise<string | undefined>;

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
export const ensureFirstAdmin = async (secret: SecretSource): Promise<'created' | 'exists' | 'unconfigured'> => {
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

export const signIn = async (secret: SecretSource, username: string, password: string): Promise<SignInAnswer> => {
  const policy = lockoutPolicy();
  const wait = lockedForSeconds(await loginFailures.get(username), policy.maxFailures);
  if (wait > 0) throw new TooManyRequests('Too many failed sign-ins; try again later', wait);

  let credentials = await users.credentials(username);
  if (!credentials && username === adminUsername() && (await ensureFirstAdmin(secret)) === 'created') {
    credentials = await users.credentials(username);
  }
  const valid = credentials ? await verifyPassword(password, credentials.passwordHash) : await verifyAgainstNothing(password);
  if (!credentials || !valid) {
    await loginFailures.record(username, policy.windowSeconds);
    throw new Unauthorized(INVALID_CREDENTIALS);
  }
  await loginFailures.clear(username);
  const incarnation = credentials.incarnation || (await users.adoptIncarnation(username, credentials.passwordHash));
  // the record changed between the check and now (deleted, re-created, new password): sign in again
  if (!incarnation) throw new Unauthorized(INVALID_CREDENTIALS);
  const { token } = await issueAccessToken(await privateKey(secret), { ...credentials.user, incarnation });
  return { accessToken: token, tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_SECONDS, user: credentials.user };
};
