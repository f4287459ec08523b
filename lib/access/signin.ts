import { adminCount } from '#lib/access/repository/admins';
import * as users from '#lib/access/repository/users';
import type { Credentials, NewUser, User } from '#lib/access/repository/users';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { withAuthOutcome } from '#lib/access/audit/outcome';
import { Conflict, TooManyRequests, Unauthorized } from '#lib/shared/errors';
import { withinGuessBudget } from './guesses';
import { storeUser } from './membership';
import { hashPassword, verifyAgainstNothing, verifyPassword } from './password';
import { ADMIN_ROLE } from './types';
import { issueAccessToken, privateKey, type SecretSource } from './sign';
import { ACCESS_TOKEN_SECONDS } from './tokens';

/**
 * Sign-in and the first admin: the only account code that reads secrets (the token's
 * private key, the first admin's password), through the `SecretSource` its caller hands in
 * (lib/adapters/secrets.ts: environment, else SSM), so only the sign-in function bundles the
 * SSM client, whose weight every other bundle and cold start is spared (DESIGN §8). Everything else in the account group verifies with the public key.
 */

export type { SecretSource };

interface SignInAnswer {
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
 * ADMIN_PASSWORD_PARAM): created only while the store has never had an admin (no admin count
 * yet, no admin stored), so an admin deleted on purpose is never created again, and changing
 * ADMIN_PASSWORD later resets nothing.
 */
export const ensureFirstAdmin = async (secret: SecretSource): Promise<'created' | 'exists' | 'unconfigured'> => {
  if (await adminCount.exists()) return 'exists';
  if ((await users.countWithRole(ADMIN_ROLE)) > 0) {
    await adminCount.ensure(); // a store from before the count
    return 'exists';
  }
  const password = await secret('ADMIN_PASSWORD');
  if (!password) return 'unconfigured';
  const username = adminUsername();
  const admin: NewUser = { username, email: `${username}@localhost`, name: 'Administrator', role: ADMIN_ROLE };
  try {
    await storeUser(admin, await hashPassword(password));
  } catch (error) {
    if (error instanceof Conflict) return 'exists'; // another container won the race
    throw error;
  }
  return 'created';
};

/** The user's credentials, the configured first admin being created on its first sign-in if absent. */
const credentialsOf = async (secret: SecretSource, username: string): Promise<Credentials | undefined> => {
  const credentials = await users.credentials(username);
  if (credentials || username !== adminUsername() || (await ensureFirstAdmin(secret)) !== 'created') return credentials;
  return users.credentials(username);
};

export const signIn = async (secret: SecretSource, username: string, password: string): Promise<SignInAnswer> => {
  // the guess is counted before the password is checked: 429 once the budget is spent
  const credentials = await withinGuessBudget(username, async () => {
    const found = await credentialsOf(secret, username);
    const valid = found ? await verifyPassword(password, found.passwordHash) : await verifyAgainstNothing(password);
    return valid ? found : undefined;
  });
  if (!credentials) throw new Unauthorized(INVALID_CREDENTIALS);
  // every stored user has one (records from before incarnations: npm run migrate)
  const { incarnation } = credentials;
  if (!incarnation) throw new Unauthorized(INVALID_CREDENTIALS);
  const { token } = await issueAccessToken(await privateKey(secret), { ...credentials.user, incarnation });
  return { accessToken: token, tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_SECONDS, user: credentials.user };
};

/**
 * Sign-in with its outcome in the audit log (succeeded, failed, locked), stored before the
 * answer; a username that names no user is recorded as `(unknown)`.
 */
export const signInRecorded = (secret: SecretSource, username: string, password: string, request: APIGatewayProxyEvent): Promise<SignInAnswer> =>
  withAuthOutcome(
    request,
    { kind: 'user', id: username, exists: async () => (await users.credentials(username)) !== undefined },
    {
      succeeded: 'signin-succeeded',
      refused: (error) => (error instanceof TooManyRequests ? 'signin-locked' : error instanceof Unauthorized ? 'signin-failed' : undefined),
    },
    () => signIn(secret, username, password),
  );
