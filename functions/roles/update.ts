import http from '#generated/routes/rolesUpdate';
import { roleCatalog } from '#lib/access';

// PUT /api/authService/role/{roleid} -> 200 the role with the fields sent changed; 404 unknown; 409 built in (admin)
export const handler = http(async ({ path, body }) => ({
  statusCode: 200,
  body: await roleCatalog.update(path.roleid, body),
}));
