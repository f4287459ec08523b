import { http } from '#lib/http';
import { changeOwnPassword } from '#lib/auth/accounts';
import { caller, signedIn } from '#lib/auth/authenticate';
import validate from '#schemas/generated/authChangeOwnPassword';

// POST /api/authService/auth/me/password -> 200; 401 wrong current password; 400 weak new one.
// Every token issued before, this one included, stops working: sign in again.
export const handler = http<{ currentPassword: string; newPassword: string }>(
  { validate, auth: signedIn },
  async ({ body, principal }) => {
    await changeOwnPassword(caller(principal).username, body.currentPassword, body.newPassword);
    return { statusCode: 200, body: 'Password changed' };
  },
);
