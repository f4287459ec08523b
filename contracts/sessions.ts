/** Sign-in and logout (DESIGN §5; docs/decisions.md "Account administration"). */
import { PASSWORD_MAX_LENGTH } from '#lib/auth/password';
import { route } from '#lib/http/contract';
import { error, name, ok, strict, text, Type } from './shared';
import { guessesSpent, user } from './users';

// Sign-in checks no policy: whatever does not match a user is the same 401.
const anyPassword = Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH });

export const routes = {
  // The only function that reads secrets: the token's private key and the first admin's password.
  signin: route({
    method: 'POST',
    path: 'api/authService/auth/signin',
    summary: 'Sign in with username and password',
    access: 'key',
    invalidStatus: 400,
    request: { body: strict({ username: name(), password: anyPassword }) },
    responses: {
      200: ok(
        'An access token',
        Type.Partial(Type.Object({ accessToken: Type.String(), tokenType: Type.Literal('Bearer'), expiresIn: Type.Integer(), user })),
      ),
      400: error('Invalid input, each offending field named'),
      401: error('Invalid username or password (the same answer for both)'),
      429: guessesSpent,
    },
    function: {
      environment: {
        ADMIN_USERNAME: "${env:ADMIN_USERNAME, 'admin'}",
        ADMIN_PASSWORD_PARAM: '${self:custom.secretParameters.adminPassword}',
        JWT_PRIVATE_KEY_PARAM: '${self:custom.secretParameters.jwtPrivateKey}',
      },
    },
  }),
  logout: route({
    method: 'POST',
    path: 'api/authService/auth/logout',
    summary: 'Revoke the bearer token',
    access: 'bearer',
    invalidStatus: 400,
    responses: { 200: text('Confirmation') },
  }),
};
