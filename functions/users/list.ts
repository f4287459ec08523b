import http from '#generated/routes/usersList';
import * as users from '#lib/access/repository/users';

// GET /api/authService/auth/all -> 200 every user, by username (admin)
export const handler = http(async () => ({
  statusCode: 200,
  body: await users.list(),
}));
