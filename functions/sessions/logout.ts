import http from '#generated/routes/sessionsLogout';
import { revokedTokens } from '#lib/access';
import { Unauthorized } from '#lib/shared/errors';

// POST /api/authService/auth/logout -> 200; the presented token is refused from now on
export const handler = http(async ({ principal }) => {
  const { tokenId, expiresAt } = principal;
  if (!tokenId || expiresAt === undefined) throw new Unauthorized('A bearer token is required'); // signed-in routes always have one
  await revokedTokens.revoke(tokenId, expiresAt);
  return { statusCode: 200, body: 'Signed out' };
});
