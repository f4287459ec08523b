import http from '#generated/routes/rolesRemove';
import { deleteRole } from '#lib/access';

// DELETE /api/authService/role/{roleid} -> 200 confirming string; 404 unknown; 409 built in or still assigned (admin)
export const handler = http(async ({ path }) => {
  await deleteRole(path.roleid);
  return { statusCode: 200, body: `Role ${path.roleid} deleted` };
});
