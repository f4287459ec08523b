import http from '#generated/routes/servicesCreate';
import { services } from '#lib/db/services';

// POST /api/authService/service -> 201 the service with its id (admin)
export const handler = http(async ({ body }) => ({
  statusCode: 201,
  body: await services.create(body),
}));
