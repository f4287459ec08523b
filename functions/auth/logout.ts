import { http } from '#lib/http';
import { caller, signedIn } from '#lib/auth/authenticate';
import { revokedTokens } from '#lib/db/sessions';

// POST /api/authService/auth/logout -> 200; the presented token is refused from now on
export const handler = http({ auth: signedIn }, async ({ principal }) => {
  const { tokenId, expiresAt } = caller(principal);
  await revokedTokens.revoke(tokenId, expiresAt);
  return { statusCode: 200, body: 'Signed out' };
});
