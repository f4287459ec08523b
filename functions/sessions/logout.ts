import http from '#generated/routes/sessionsLogout';
import { revokedTokens } from '#lib/db/sessions';

// POST /api/authService/auth/logout -> 200; the presented token is refused from now on
export const handler = http(async ({ principal }) => {
  const { tokenId, expiresAt } = principal;
  await revokedTokens.revoke(tokenId, expiresAt);
  return { statusCode: 200, body: 'Signed out' };
});
