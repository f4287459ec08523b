import http from '#generated/routes/usersChangeOwnPassword';
import { changeOwnPassword } from '#lib/auth/accounts';

// POST /api/authService/auth/me/password -> 200; 401 wrong current password; 400 weak new one.
// Every token issued before, this one included, stops working: sign in again.
export const handler = http(async ({ body, principal }) => {
  await changeOwnPassword(principal.username, body.currentPassword, body.newPassword);
  return { statusCode: 200, body: 'Password changed' };
});
