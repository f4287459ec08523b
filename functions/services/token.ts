import http from '#generated/routes/servicesToken';
import { secret } from '#lib/adapters/secrets';
import { exchangeServiceSecretRecorded } from '#lib/access';

// POST /api/authService/service/token -> 200 {accessToken, tokenType, expiresIn}; 401 the same body for an
// unknown id, a wrong secret and an inactive service (public: the API key only, like sign-in); each outcome in the audit log
export const handler = http(async ({ body, event }) => ({
  statusCode: 200,
  body: await exchangeServiceSecretRecorded(secret, body.id, body.secret, event),
}));
