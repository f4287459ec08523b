/** Roles (DESIGN §5): built-in admin and viewer, created ones by roleid. */
import { route } from '#lib/http/contract';
import { description, error, list, ok, strict, text, Type } from './shared';
import { roleId } from './users';

const permission = Type.String({
  pattern: '^[A-Za-z0-9:._*-]{1,64}$',
  description: 'a permission (1 to 64 letters, digits or : . _ * -)',
});
const role = Type.Partial(
  Type.Object({
    roleid: Type.String(),
    name: Type.String(),
    description: Type.String(),
    permissions: Type.Array(Type.String()),
    builtIn: Type.Boolean(),
  }),
);
const path = { roleid: roleId };
const invalid = error('Invalid input, each offending field named');
const unknown = error('No role with that id');

export const routes = {
  create: route({
    method: 'POST',
    path: 'api/authService/role',
    summary: 'Create a role',
    access: 'admin',
    invalidStatus: 400,
    request: {
      body: strict({
        name: Type.String({
          pattern: '^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$',
          description: '1 to 64 letters, digits, spaces, dots, underscores or hyphens, starting with a letter or digit',
        }),
        description: Type.Optional(description),
        permissions: Type.Optional(Type.Array(permission, { maxItems: 64, uniqueItems: true })),
      }),
    },
    responses: { 201: ok('The role with its roleid', role), 400: invalid, 409: error('A role with that id exists') },
  }),
  list: route({
    method: 'GET',
    path: 'api/authService/role/all',
    summary: 'List roles (built-in admin and viewer included)',
    access: 'bearer',
    invalidStatus: 400,
    responses: { 200: list('Every role', role) },
  }),
  get: route({
    method: 'GET',
    path: 'api/authService/role/{roleid}',
    summary: 'Get a role',
    access: 'bearer',
    invalidStatus: 400,
    request: { path },
    responses: { 200: ok('The role', role), 400: invalid, 404: unknown },
  }),
  remove: route({
    method: 'DELETE',
    path: 'api/authService/role/{roleid}',
    summary: 'Delete a role',
    access: 'admin',
    invalidStatus: 400,
    request: { path },
    responses: { 200: text('Confirmation'), 400: invalid, 404: unknown, 409: error('Built-in, or still assigned to a user') },
  }),
  createTable: route({
    method: 'POST',
    path: 'api/authService/role/createTable',
    summary: 'Make sure the table exists (idempotent)',
    access: 'admin',
    invalidStatus: 400,
    responses: { 200: text('The table exists and is ACTIVE') },
  }),
};
