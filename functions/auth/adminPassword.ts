import { http } from '#lib/http';
import { setPassword } from '#lib/auth/accounts';
import { adminOnly } from '#lib/auth/authenticate';
import validate from '#schemas/generated/authAdminPassword';

// POST /api/authService/auth/{user}/password/admin -> 200; 404 unknown user; the user's tokens stop working (admin)
export const handler = http<{ newPassword: string }, { user: string }>(
  { validate, auth: adminOnly },
  async ({ body, path }) => {
    await setPassword(path.user, body.newPassword);
    return { statusCode: 200, body: `Password of ${path.user} changed` };
  },
);
