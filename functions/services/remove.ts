import { http } from '#lib/http';
import { adminOnly } from '#lib/auth/authenticate';
import { services } from '#lib/db/services';
import validate from '#schemas/generated/serviceById';

// DELETE /api/authService/service/{id} -> 200 confirming string; 404 unknown (admin)
export const handler = http<undefined, { id: string }>({ validate, auth: adminOnly }, async ({ path }) => {
  await services.remove(path.id);
  return { statusCode: 200, body: `Service ${path.id} deleted` };
});
