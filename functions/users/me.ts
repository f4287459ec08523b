import http from '#generated/routes/usersMe';
import { requireUser } from '#lib/access';
import { getUser } from '#lib/access';

// GET /api/authService/auth/me -> 200 the signed-in user; 403 a service's token
export const handler = http(async ({ principal }) => {
  requireUser(principal);
  return { statusCode: 200, body: await getUser(principal.username) };
});
