import { http } from '#lib/http';
import { signedIn } from '#lib/auth/authenticate';
import { roles } from '#lib/db/roles';

// GET /api/authService/role/all -> 200 built-in roles, then created ones by roleid (any signed-in user)
export const handler = http({ auth: signedIn }, async () => ({
  statusCode: 200,
  body: await roles.list(),
}));
