import http from '#generated/routes/servicesRemove';
import { removeService } from '#lib/access';

// DELETE /api/authService/service/{id} -> 200 confirming string; 404 unknown (admin)
export const handler = http(async ({ path }) => {
  await removeService(path.id);
  return { statusCode: 200, body: `Service ${path.id} deleted` };
});
