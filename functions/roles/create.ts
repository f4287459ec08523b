import http from '#generated/routes/rolesCreate';
import { roleIdOf } from '#lib/auth/roles';
import { roles } from '#lib/db/roles';

// POST /api/authService/role -> 201 the role with its roleid (slug of the name); 409 taken (admin)
export const handler = http(async ({ body }) => ({
  statusCode: 201,
  body: await roles.create({
    roleid: roleIdOf(body.name),
    name: body.name,
    description: body.description ?? '',
    permissions: body.permissions ?? [],
  }),
}));
