import http from '#generated/routes/usersChangeOwnPassword';
import { changeOwnPassword } from '#lib/access';
import { requireUser } from '#lib/access';

// POST /api/authService/auth/me/password -> 200; 401 wrong current password; 400 weak new one; 403 a service's token.
// Every token issued before, this one included, stops working: sign in again.
export const handler = http(async ({ body, principal }) => {
  requireUser(principal);
  await changeOwnPassword(principal.username, body.currentPassword, body.newPassword);
  return { statusCode: 200, body: 'Password changed' };
});
