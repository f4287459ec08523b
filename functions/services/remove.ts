import http from '#generated/routes/servicesRemove';
import { services } from '#lib/db/services';

// DELETE /api/authService/service/{id} -> 200 confirming string; 404 unknown (admin)
export const handler = http(async ({ path }) => {
  await services.remove(path.id);
  return { statusCode: 200, body: `Service ${path.id} deleted` };
});
