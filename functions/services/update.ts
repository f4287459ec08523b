import http from '#generated/routes/servicesUpdate';
import { services } from '#lib/db/services';

// PUT /api/authService/service/{id} -> 200 the updated service (only the fields sent change); 404 unknown (admin)
export const handler = http(async ({ path, body }) => ({
  statusCode: 200,
  body: await services.update(path.id, body),
}));
