import http from '#generated/routes/servicesCreate';
import { registerService } from '#lib/access';

// POST /api/authService/service -> 201 the service with its id and client secret (shown only here); 400 invalid or unknown role (admin)
export const handler = http(async ({ body }) => ({
  statusCode: 201,
  body: await registerService(body),
}));
