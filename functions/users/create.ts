import http from '#generated/routes/usersCreate';
import { createUser } from '#lib/access';

// POST /api/authService/auth -> 201 the user (with its scope, when scoped); 400 invalid or unknown role; 409 exists (admin)
export const handler = http(async ({ body }) => {
  const { password, ...user } = body;
  return { statusCode: 201, body: await createUser(user, password) };
});
