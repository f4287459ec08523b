import http from '#generated/routes/rolesList';
import { roleCatalog } from '#lib/access';

// GET /api/authService/role/all -> 200 built-in roles, then created ones by roleid (any signed-in user)
export const handler = http(async () => ({
  statusCode: 200,
  body: await roleCatalog.list(),
}));
