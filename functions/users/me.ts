import http from '#generated/routes/usersMe';
import { requireUser } from '#lib/access';
import { users } from '#lib/access';

// GET /api/authService/auth/me -> 200 the signed-in user; 403 a service's token
export const handler = http(async ({ principal }) => {
  requireUser(principal);
  return { statusCode: 200, body: await users.get(principal.username) };
});
