/** Sign-in and logout (DESIGN §5; access tokens: docs/adr/0027-eddsa-access-tokens.md). */
import { PASSWORD_MAX_LENGTH } from '#lib/access';
import { error, name, ok, routesOf, strict, text, Type } from './shared';
import { guessesSpent, user } from './users';

// Sign-in checks no policy: whatever does not match a user is the same 401.
const anyPassword = Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH });

export const routes = {
  signin: routesOf({ permission: 'public', invalidStatus: 400 })('POST', 'api/authService/auth/signin', 'Sign in with username and password', {
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
  logout: routesOf({ permission: 'signed-in', invalidStatus: 400 })('POST', 'api/authService/auth/logout', 'Revoke the bearer token', {
    responses: { 200: text('Confirmation') },
    audit: { event: 'logout', targetId: 'caller' },
  }),
};
