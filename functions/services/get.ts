import http from '#generated/routes/servicesGet';
import { services } from '#lib/access';

// GET /api/authService/service/{id} -> 200 the service; 404 unknown (any signed-in user)
export const handler = http(async ({ path }) => ({
  statusCode: 200,
  body: await services.get(path.id),
}));
