import http from '#generated/routes/sessionsSignin';
import { secret } from '#lib/adapters/secrets';
import { signInRecorded } from '#lib/access';

// POST /api/authService/auth/signin -> 200 {accessToken, tokenType, expiresIn, user}; 401 same body
// for an unknown user and a wrong password; 429 with Retry-After after repeated failures; each outcome in the audit log
export const handler = http(async ({ body, event }) => ({
  statusCode: 200,
  body: await signInRecorded(secret, body.username, body.password, event),
}));
