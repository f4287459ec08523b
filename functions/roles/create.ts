import { http } from '#lib/http';
import { adminOnly } from '#lib/auth/authenticate';
import { roleIdOf } from '#lib/auth/roles';
import { roles } from '#lib/db/roles';
import validate from '#schemas/generated/roleCreate';

interface Body {
  name: string;
  description?: string;
  permissions?: string[];
}

// POST /api/authService/role -> 201 the role with its roleid (slug of the name); 409 taken (admin)
export const handler = http<Body>({ validate, auth: adminOnly }, async ({ body }) => ({
  statusCode: 201,
  body: await roles.create({
    roleid: roleIdOf(body.name),
    name: body.name,
    description: body.description ?? '',
    permissions: body.permissions ?? [],
  }),
}));
