import { http } from '#lib/http';
import { adminOnly, caller } from '#lib/auth/authenticate';
import { mayDeleteUser } from '#lib/auth/policy';
import { users } from '#lib/db/users';
import validate from '#schemas/generated/authUserPath';

// DELETE /api/authService/auth/{user} -> 200 confirming string; 404 unknown; 409 deleting yourself (admin)
export const handler = http<undefined, { user: string }>({ validate, auth: adminOnly }, async ({ path, principal }) => {
  mayDeleteUser(caller(principal), path.user);
  await users.remove(path.user);
  return { statusCode: 200, body: `User ${path.user} deleted` };
});
