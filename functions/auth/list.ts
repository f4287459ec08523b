import { http } from '#lib/http';
import { adminOnly } from '#lib/auth/authenticate';
import { users } from '#lib/db/users';

// GET /api/authService/auth/all -> 200 every user, by username (admin)
export const handler = http({ auth: adminOnly }, async () => ({
  statusCode: 200,
  body: await users.list(),
}));
