import http from '#generated/routes/usersGet';
import { mayReadUser } from '#lib/access';
import { getUser } from '#lib/access';

// GET /api/authService/auth/{user} -> 200 the user (admin, or the user itself; 403 otherwise); 404 unknown
export const handler = http(async ({ path, principal }) => {
  mayReadUser(principal, path.user);
  return { statusCode: 200, body: await getUser(path.user) };
});
