import http from '#generated/routes/usersRemove';
import { mayDeleteUser } from '#lib/auth/policy';
import { users } from '#lib/db/users';

// DELETE /api/authService/auth/{user} -> 200 confirming string; 404 unknown; 409 deleting yourself (admin)
export const handler = http(async ({ path, principal }) => {
  mayDeleteUser(principal, path.user);
  await users.remove(path.user);
  return { statusCode: 200, body: `User ${path.user} deleted` };
});
