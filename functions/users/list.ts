import http from '#generated/routes/usersList';
import { listUsers } from '#lib/access';

// GET /api/authService/auth/all -> 200 every user, by username (admin)
export const handler = http(async () => ({
  statusCode: 200,
  body: await listUsers(),
}));
