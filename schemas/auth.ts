import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '#lib/auth/password';
import { event, name, type Schema } from './common';

const body = (properties: Record<string, Schema>, required: string[]): Schema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});

export const username: Schema = {
  type: 'string',
  pattern: '^(?!(all|me|signin|logout)$)[a-zA-Z0-9._-]{3,64}$',
  description: '3 to 64 letters, digits, dots, underscores or hyphens, and not one of all, me, signin, logout',
};

/** A role id as users carry it and paths name it: the slug of the role's name. */
export const roleId: Schema = {
  type: 'string',
  pattern: '^[a-z0-9]+(-[a-z0-9]+)*$',
  maxLength: 64,
  description: 'a role id (lower-case letters, digits and single hyphens, at most 64)',
};

export const newPassword: Schema = {
  type: 'string',
  minLength: PASSWORD_MIN_LENGTH,
  maxLength: PASSWORD_MAX_LENGTH,
  description:
    `a password of ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters, without control, invisible or unassigned ` +
    'characters, not containing the username, not a pattern (few different characters, repeats, runs) nor a common ' +
    'password; a 400 names the rule broken',
};

// Sign-in checks no policy: whatever does not match a user is the same 401.
const anyPassword: Schema = { type: 'string', minLength: 1, maxLength: PASSWORD_MAX_LENGTH };

const userPath = { user: username };

export const events = {
  authSignin: event({ body: body({ username: name(), password: anyPassword }, ['username', 'password']) }),
  authCreateUser: event({
    body: body(
      {
        username,
        password: newPassword,
        email: { type: 'string', format: 'email', maxLength: 256, description: 'an e-mail address' },
        name: name(),
        role: roleId,
      },
      ['username', 'password', 'email', 'name', 'role'],
    ),
  }),
  authUserPath: event({ path: userPath }),
  authChangeOwnPassword: event({
    body: body({ currentPassword: anyPassword, newPassword }, ['currentPassword', 'newPassword']),
  }),
  authAdminPassword: event({ path: userPath, body: body({ newPassword }, ['newPassword']) }),
};
