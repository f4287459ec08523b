import { http } from '#lib/http';
import { adminOnly } from '#lib/auth/authenticate';
import { services, type NewService } from '#lib/db/services';
import validate from '#schemas/generated/serviceCreate';

// POST /api/authService/service -> 201 the service with its id (admin)
export const handler = http<NewService>({ validate, auth: adminOnly }, async ({ body }) => ({
  statusCode: 201,
  body: await services.create(body),
}));
