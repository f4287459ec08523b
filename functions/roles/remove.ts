import { http } from '#lib/http';
import { adminOnly } from '#lib/auth/authenticate';
import { deleteRole } from '#lib/auth/membership';
import validate from '#schemas/generated/roleById';

// DELETE /api/authService/role/{roleid} -> 200 confirming string; 404 unknown; 409 built in or still assigned (admin)
export const handler = http<undefined, { roleid: string }>({ validate, auth: adminOnly }, async ({ path }) => {
  await deleteRole(path.roleid);
  return { statusCode: 200, body: `Role ${path.roleid} deleted` };
});
