import http from '#generated/routes/servicesUpdate';
import { changeService } from '#lib/access';

// PUT /api/authService/service/{id} -> 200 the updated service (only the fields sent change); 400 unknown role; 404 unknown (admin)
export const handler = http(async ({ path, body }) => ({
  statusCode: 200,
  body: await changeService(path.id, body),
}));
