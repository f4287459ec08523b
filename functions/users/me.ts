import http from '#generated/routes/usersMe';
import { requireUser } from '#lib/access/policy';
import * as users from '#lib/access/repository/users';

// GET /api/authService/auth/me -> 200 the signed-in user; 403 a service's token
export const handler = http(async ({ principal }) => {
  requireUser(principal);
  return { statusCode: 200, body: await users.get(principal.username) };
});
