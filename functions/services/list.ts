import http from '#generated/routes/servicesList';
import { services } from '#lib/access';

// GET /api/authService/service -> 200 every registered service, by id (any signed-in user)
export const handler = http(async () => ({
  statusCode: 200,
  body: await services.list(),
}));
