import { http } from '#lib/http';
import { adminOnly } from '#lib/auth/authenticate';
import { services, type ServicePatch } from '#lib/db/services';
import validate from '#schemas/generated/serviceUpdate';

// PUT /api/authService/service/{id} -> 200 the updated service (only the fields sent change); 404 unknown (admin)
export const handler = http<ServicePatch, { id: string }>({ validate, auth: adminOnly }, async ({ path, body }) => ({
  statusCode: 200,
  body: await services.update(path.id, body),
}));
