import http from '#generated/routes/servicesToken';
import { secret } from '#lib/adapters/secrets';
import { exchangeServiceSecret } from '#lib/auth/serviceToken';

// POST /api/authService/service/token -> 200 {accessToken, tokenType, expiresIn}; 401 the same body for an
// unknown id, a wrong secret and an inactive service (public: the API key only, like sign-in)
export const handler = http(async ({ body }) => ({
  statusCode: 200,
  body: await exchangeServiceSecret(secret, body.id, body.secret),
}));
