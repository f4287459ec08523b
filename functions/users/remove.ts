import http from '#generated/routes/usersRemove';
import { mayDeleteUser } from '#lib/access';
import { removeUser } from '#lib/access';

// DELETE /api/authService/auth/{user} -> 200 confirming string; 404 unknown; 409 deleting yourself or the last admin (admin)
export const handler = http(async ({ path, principal }) => {
  mayDeleteUser(principal, path.user);
  await removeUser(path.user);
  return { statusCode: 200, body: `User ${path.user} deleted` };
});
