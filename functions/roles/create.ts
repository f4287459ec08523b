import http from '#generated/routes/rolesCreate';
import { roleCatalog, roleIdOf } from '#lib/access';

// POST /api/authService/role -> 201 the role with its roleid (slug of the name); 409 taken (admin)
export const handler = http(async ({ body }) => ({
  statusCode: 201,
  body: await roleCatalog.create({
    roleid: roleIdOf(body.name),
    name: body.name,
    description: body.description ?? '',
    permissions: body.permissions ?? [],
  }),
}));
