import { http } from '#lib/http';
import { signedIn } from '#lib/auth/authenticate';
import { services } from '#lib/db/services';
import validate from '#schemas/generated/serviceById';

// GET /api/authService/service/{id} -> 200 the service; 404 unknown (any signed-in user)
export const handler = http<undefined, { id: string }>({ validate, auth: signedIn }, async ({ path }) => ({
  statusCode: 200,
  body: await services.get(path.id),
}));
