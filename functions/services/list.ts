import { http } from '#lib/http';
import { signedIn } from '#lib/auth/authenticate';
import { services } from '#lib/db/services';

// GET /api/authService/service -> 200 every registered service, by id (any signed-in user)
export const handler = http({ auth: signedIn }, async () => ({
  statusCode: 200,
  body: await services.list(),
}));
