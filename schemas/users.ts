/**
 * User management (DESIGN §5): every route needs `Authorization: Bearer <accessToken>` besides the
 * API key; 401 and, on admin routes, 403 are documented from `access`.
 */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '#lib/access';
import { SERVICE_HAS_NO_ACCOUNT } from '#lib/access';
import { accessScope, answeredScope, dateTime, error, forbidden, list, name, ok, recordRoutesOf, routesOf, strict, text, Type } from './shared';

export const username = Type.String({
  pattern: '^(?!(all|me|signin|logout)$)[a-zA-Z0-9._-]{3,64}$',
  description: '3 to 64 letters, digits, dots, underscores or hyphens, and not one of all, me, signin, logout',
});

/** A role id as users carry it and paths name it: the slug of the role's name. */
export const roleId = Type.String({
  pattern: '^[a-z0-9]+(-[a-z0-9]+)*$',
  maxLength: 64,
  description: 'a role id (lower-case letters, digits and single hyphens, at most 64)',
});

export const newPassword = Type.String({
  minLength: PASSWORD_MIN_LENGTH,
  maxLength: PASSWORD_MAX_LENGTH,
  description:
    `a password of ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters, without control, invisible or unassigned ` +
    'characters, not containing the username, not a pattern (few different characters, repeats, runs) nor a common ' +
    'password; a 400 names the rule broken',
});
const anyPassword = Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH });


export const user = Type.Partial(
  Type.Object({
    username: Type.String(),
    email: Type.String(),
    name: Type.String(),
    role: Type.String(),
    scope: answeredScope,
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
);
const path = { user: username };
const serviceToken = forbidden('Signed in as a registered service, which has no user account', SERVICE_HAS_NO_ACCOUNT);
const invalid = error('Invalid input, each offending field named');
const unknown = error('No user with that id');
/** Sign-in and the own-password change share one budget of wrong passwords per user. */
export const guessesSpent = error(
  'Too many wrong passwords for this user in the window (sign-in and own password change together): refused, the right password too, until Retry-After',
);

const signedIn = { permission: 'signed-in', invalidStatus: 400 } as const;
const admin = { permission: 'admin', invalidStatus: 400 } as const;
const signedInRoute = routesOf(signedIn);
const adminRoute = routesOf(admin);
const signedInRecordRoute = recordRoutesOf(signedIn, { path, invalid, unknown });
const adminRecordRoute = recordRoutesOf(admin, { path, invalid, unknown });

export const routes = {
  create: adminRoute('POST', 'api/authService/auth', 'Create a user', {
    request: {
      body: strict({
        username,
        password: newPassword,
        email: Type.String({ format: 'email', maxLength: 256, description: 'an e-mail address' }),
        name: name(),
        role: roleId,
        scope: Type.Optional(accessScope('user')),
      }),
    },
    responses: { 201: ok('The user', user), 400: invalid, 409: error('The username is taken') },
    idempotent: true,
  }),
  list: adminRoute('GET', 'api/authService/auth/all', 'List users', { responses: { 200: list('Every user', user) } }),
  me: signedInRoute('GET', 'api/authService/auth/me', "The signed-in user's details", { responses: { 200: ok('The user', user), 403: serviceToken } }),
  get: signedInRecordRoute(
    'GET',
    'api/authService/auth/{user}',
    "A user's details (admin, or the user)",
    { responses: { 200: ok('The user', user), 403: forbidden('Signed in, neither an admin nor the user named', 'Only an admin may read another user') } },
  ),
  remove: adminRecordRoute('DELETE', 'api/authService/auth/{user}', 'Delete a user', {
    responses: { 200: text('Confirmation'), 409: error('Admins cannot delete themselves, nor the last unscoped admin') },
  }),
  changeOwnPassword: signedInRoute('POST', 'api/authService/auth/me/password', 'Change your own password (needs the current one); earlier tokens stop working', {
    request: { body: strict({ currentPassword: anyPassword, newPassword }) },
    responses: { 200: text('Confirmation'), 400: invalid, 401: error('Wrong current password or bad token'), 403: serviceToken, 429: guessesSpent },
    audit: { event: 'password-changed', targetId: 'caller' },
  }),
  adminPassword: adminRecordRoute('POST', 'api/authService/auth/{user}/password/admin', "Set a user's password as an admin; their earlier tokens stop working", {
    request: { body: strict({ newPassword }) },
    responses: { 200: text('Confirmation') },
    audit: { event: 'password-changed' },
  }),
};
