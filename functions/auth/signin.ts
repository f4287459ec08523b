import { http } from '#lib/http';
import { signIn } from '#lib/auth/signin';
import validate from '#schemas/generated/authSignin';

// POST /api/authService/auth/signin -> 200 {accessToken, tokenType, expiresIn, user}; 401 same body
// for an unknown user and a wrong password; 429 with Retry-After after repeated failures
export const handler = http<{ username: string; password: string }>({ validate }, async ({ body }) => ({
  statusCode: 200,
  body: await signIn(body.username, body.password),
}));
