/**
 * OpenAPI docs of the account-administration routes (DESIGN §5). Every route but sign-in
 * needs `Authorization: Bearer <accessToken>` besides the API key.
 */
import { error, text, type AnswerDoc, type RouteDoc, type Schema } from './common';

const stamp = { type: 'string', format: 'date-time' };
const user: Schema = {
  type: 'object',
  properties: { username: { type: 'string' }, email: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' }, createdAt: stamp, updatedAt: stamp },
};
const role: Schema = {
  type: 'object',
  properties: {
    roleid: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    permissions: { type: 'array', items: { type: 'string' } },
    builtIn: { type: 'boolean' },
  },
};
const service: Schema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    url: { type: 'string', format: 'uri' },
    active: { type: 'boolean' },
    createdAt: stamp,
    updatedAt: stamp,
  },
};
const one = (description: string, schema: Schema): AnswerDoc => ({ description, schema });
const many = (description: string, schema: Schema): AnswerDoc => ({ description, schema: { type: 'array', items: schema } });

const invalid = error('Invalid input, each offending field named');
const unauthenticated = error('Missing, invalid, expired or revoked bearer token');
/** The exact 403 body a signed-in caller gets (lib/auth), beside API Gateway's own 403 for the key. */
const forbidden = (description: string, message: string): AnswerDoc => ({
  description: `${description}: {"message":"${message}"}`,
  schema: { type: 'object', required: ['message'], properties: { message: { const: message } } },
});
const notAdmin = forbidden('Signed in, but not an admin', 'This operation needs the admin role');
const notYours = forbidden('Signed in, neither an admin nor the user named', 'Only an admin may read another user');
const unknown = (what: string) => error(`No ${what} with that id`);
const guessesSpent = error(
  'Too many wrong passwords for this user in the window (sign-in and own password change together): refused, the right password too, until Retry-After',
);

/** A bearer route: 401 always, 403 when only admins may call it. */
const guarded = (summary: string, answers: Record<number, AnswerDoc>, adminOnly = true): RouteDoc => ({
  summary,
  bearer: true,
  answers: adminOnly ? { ...answers, 401: unauthenticated, 403: notAdmin } : { ...answers, 401: unauthenticated },
});

export const docs: Record<string, RouteDoc> = {
  authSignin: {
    summary: 'Sign in with username and password',
    answers: {
      200: one('An access token', {
        type: 'object',
        properties: { accessToken: { type: 'string' }, tokenType: { const: 'Bearer' }, expiresIn: { type: 'integer' }, user },
      }),
      400: invalid,
      401: error('Invalid username or password (the same answer for both)'),
      429: guessesSpent,
    },
  },
  authLogout: guarded('Revoke the bearer token', { 200: text('Confirmation') }, false),
  authCreate: guarded('Create a user', { 201: one('The user', user), 400: invalid, 409: error('The username is taken') }),
  authList: guarded('List users', { 200: many('Every user', user) }),
  authMe: guarded("The signed-in user's details", { 200: one('The user', user) }, false),
  authGet: guarded("A user's details (admin, or the user)", { 200: one('The user', user), 400: invalid, 403: notYours, 404: unknown('user') }, false),
  authRemove: guarded('Delete a user', { 200: text('Confirmation'), 400: invalid, 404: unknown('user'), 409: error('Admins cannot delete themselves, nor the last admin') }),
  authChangeOwnPassword: guarded(
    'Change your own password (needs the current one); earlier tokens stop working',
    { 200: text('Confirmation'), 400: invalid, 401: error('Wrong current password or bad token'), 429: guessesSpent },
    false,
  ),
  authAdminPassword: guarded("Set a user's password as an admin; their earlier tokens stop working", {
    200: text('Confirmation'),
    400: invalid,
    404: unknown('user'),
  }),
  rolesCreate: guarded('Create a role', { 201: one('The role with its roleid', role), 400: invalid, 409: error('A role with that id exists') }),
  rolesList: guarded('List roles (built-in admin and viewer included)', { 200: many('Every role', role) }, false),
  rolesGet: guarded('Get a role', { 200: one('The role', role), 400: invalid, 404: unknown('role') }, false),
  rolesRemove: guarded('Delete a role', { 200: text('Confirmation'), 400: invalid, 404: unknown('role'), 409: error('Built-in, or still assigned to a user') }),
  rolesCreateTable: guarded('Make sure the table exists (idempotent)', { 200: text('The table exists and is ACTIVE') }),
  servicesCreateTable: guarded('Make sure the table exists (idempotent)', { 200: text('The table exists and is ACTIVE') }),
  servicesCreate: guarded('Register a service', { 201: one('The service with its id', service), 400: invalid }),
  servicesList: guarded('List registered services', { 200: many('Every service', service) }, false),
  servicesGet: guarded('Get a registered service', { 200: one('The service', service), 400: invalid, 404: unknown('service') }, false),
  servicesUpdate: guarded('Change some fields of a service', { 200: one('The updated service', service), 400: invalid, 404: unknown('service') }),
  servicesRemove: guarded('Delete a service', { 200: text('Confirmation'), 400: invalid, 404: unknown('service') }),
};
