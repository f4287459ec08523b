import http from '#generated/routes/usersAdminPassword';
import { setPassword } from '#lib/access';

// POST /api/authService/auth/{user}/password/admin -> 200; 404 unknown user; the user's tokens stop working (admin)
export const handler = http(async ({ body, path }) => {
  await setPassword(path.user, body.newPassword);
  return { statusCode: 200, body: `Password of ${path.user} changed` };
});
