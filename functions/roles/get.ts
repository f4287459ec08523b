import { http } from '#lib/http';
import { signedIn } from '#lib/auth/authenticate';
import { roles } from '#lib/db/roles';
import validate from '#schemas/generated/roleById';

// GET /api/authService/role/{roleid} -> 200 the role; 404 unknown (any signed-in user)
export const handler = http<undefined, { roleid: string }>({ validate, auth: signedIn }, async ({ path }) => ({
  statusCode: 200,
  body: await roles.get(path.roleid),
}));
