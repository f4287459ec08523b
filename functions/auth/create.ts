import { http } from '#lib/http';
import { createUser } from '#lib/auth/accounts';
import { adminOnly } from '#lib/auth/authenticate';
import type { NewUser } from '#lib/db/users';
import validate from '#schemas/generated/authCreateUser';

// POST /api/authService/auth -> 201 the user; 400 invalid or unknown role; 409 exists (admin)
export const handler = http<NewUser & { password: string }>({ validate, auth: adminOnly }, async ({ body }) => {
  const { password, ...user } = body;
  return { statusCode: 201, body: await createUser(user, password) };
});
