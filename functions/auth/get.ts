import { http } from '#lib/http';
import { caller, signedIn } from '#lib/auth/authenticate';
import { mayReadUser } from '#lib/auth/policy';
import { users } from '#lib/db/users';
import validate from '#schemas/generated/authUserPath';

// GET /api/authService/auth/{user} -> 200 the user (admin, or the user itself; 403 otherwise); 404 unknown
export const handler = http<undefined, { user: string }>({ validate, auth: signedIn }, async ({ path, principal }) => {
  mayReadUser(caller(principal), path.user);
  return { statusCode: 200, body: await users.get(path.user) };
});
