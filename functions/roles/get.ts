import http from '#generated/routes/rolesGet';
import { roleCatalog } from '#lib/access';

// GET /api/authService/role/{roleid} -> 200 the role; 404 unknown (any signed-in user)
export const handler = http(async ({ path }) => ({
  statusCode: 200,
  body: await roleCatalog.get(path.roleid),
}));
