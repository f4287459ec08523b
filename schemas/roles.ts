/** Roles (DESIGN §5): built-in admin, viewer and operator, created ones by roleid. */
import { PERMISSIONS } from '#lib/shared/access';
import { description, ENSURE_TABLE, error, list, oneOfValues, ok, recordRoutesOf, routesOf, strict, text, Type } from './shared';
import { roleId } from './users';

const permission = oneOfValues(PERMISSIONS, { description: `a permission: one of ${PERMISSIONS.join(', ')}` });
const permissions = Type.Array(permission, { maxItems: PERMISSIONS.length, uniqueItems: true, description: 'any subset of the permission vocabulary' });
const role = Type.Partial(
  Type.Object({
    roleid: Type.String(),
    name: Type.String(),
    description: Type.String(),
    permissions: Type.Array(Type.String()),
    builtIn: Type.Boolean(),
  }),
);
const invalid = error('Invalid input, each offending field named');
const record = { path: { roleid: roleId }, invalid, unknown: error('No role with that id') };

const signedIn = { permission: 'signed-in', invalidStatus: 400 } as const;
const admin = { permission: 'admin', invalidStatus: 400 } as const;
const signedInRoute = routesOf(signedIn);
const adminRoute = routesOf(admin);

export const routes = {
  create: adminRoute('POST', 'api/authService/role', 'Create a role', {
    request: {
      body: strict({
        name: Type.String({
          pattern: '^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$',
          description: '1 to 64 letters, digits, spaces, dots, underscores or hyphens, starting with a letter or digit',
        }),
        description: Type.Optional(description),
        permissions: Type.Optional(permissions),
      }),
    },
    responses: { 201: ok('The role with its roleid', role), 400: invalid, 409: error('A role with that id exists') },
    idempotent: true,
  }),
  list: signedInRoute('GET', 'api/authService/role/all', 'List roles (built-in admin, viewer and operator included)', {
    responses: { 200: list('Every role', role) },
  }),
  get: recordRoutesOf(signedIn, record)('GET', 'api/authService/role/{roleid}', 'Get a role', {
    responses: { 200: ok('The role', role) },
  }),
  update: recordRoutesOf(admin, record)('PUT', 'api/authService/role/{roleid}', "Change a created role's description and/or permissions; its holders act with them from their next request", {
    request: {
      body: Type.Partial(strict({ description, permissions }), { minProperties: 1, description: 'an object with description, permissions or both' }),
    },
    responses: { 200: ok('The updated role', role), 409: error('A built-in role, which cannot be changed') },
  }),
  remove: recordRoutesOf(admin, record)('DELETE', 'api/authService/role/{roleid}', 'Delete a role', {
    responses: { 200: text('Confirmation'), 409: error('Built-in, or still assigned to a user or a service') },
  }),
  createTable: adminRoute('POST', 'api/authService/role/createTable', ENSURE_TABLE, { responses: { 200: text('The table exists and is ACTIVE') } }),
};
