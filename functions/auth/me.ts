import { http } from '#lib/http';
import { caller, signedIn } from '#lib/auth/authenticate';
import { users } from '#lib/db/users';

// GET /api/authService/auth/me -> 200 the signed-in user
export const handler = http({ auth: signedIn }, async ({ principal }) => ({
  statusCode: 200,
  body: await users.get(caller(principal).username),
}));
