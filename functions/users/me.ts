import http from '#generated/routes/usersMe';
import * as users from '#lib/db/users';

// GET /api/authService/auth/me -> 200 the signed-in user
export const handler = http(async ({ principal }) => ({
  statusCode: 200,
  body: await users.get(principal.username),
}));
