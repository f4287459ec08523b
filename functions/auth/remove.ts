import { http } from '#lib/http';
import { adminOnly, caller } from '#lib/auth/authenticate';
import { mayDeleteUser } from '#lib/auth/policy';
import { removeUser } from '#lib/auth/membership';
import validate from '#schemas/generated/authUserPath';

// DELETE /api/authService/auth/{user} -> 200 confirming string; 404 unknown; 409 deleting yourself or the last admin (admin)
export const handler = http<undefined, { user: string }>({ validate, auth: adminOnly }, async ({ path, principal }) => {
  mayDeleteUser(caller(principal), path.user);
  await removeUser(path.user);
  return { statusCode: 200, body: `User ${path.user} deleted` };
});
