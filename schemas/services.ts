/** Registered services (DESIGN §5): principals with a role and a scope, which exchange a client secret for a token. */
import { accessScope, answeredScope, dateTime, description, ENSURE_TABLE, error, list, name, ok, recordRoutesOf, routesOf, strict, text, Type, uuidParam } from './shared';
import { roleId } from './users';

const fields = {
  name: name(),
  description: Type.Optional(description),
  url: Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048, description: 'an http or https URL' }),
  active: Type.Optional(Type.Boolean()),
  role: Type.Optional(Type.String({ ...roleId, description: 'an existing role id (default viewer): what the service may do' })),
  scope: Type.Optional(accessScope('service')),
};
const serviceId = uuidParam('a service id (UUID)');
const serviceFields = {
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  url: Type.String({ format: 'uri' }),
  active: Type.Boolean(),
  role: Type.String(),
  scope: answeredScope,
  createdAt: dateTime,
  updatedAt: dateTime,
};
const service = Type.Partial(Type.Object(serviceFields));
const clientSecret = Type.String({ description: 'the client secret: answered only here, stored only as a hash; exchange it at POST service/token' });
const withSecret = Type.Partial(Type.Object({ ...serviceFields, secret: clientSecret }));
const invalid = error('Invalid input, each offending field named');

const signedIn = { permission: 'signed-in', invalidStatus: 400 } as const;
const admin = { permission: 'admin', invalidStatus: 400 } as const;
const record = { path: { id: serviceId }, invalid, unknown: error('No service with that id') };
const signedInRoute = routesOf(signedIn);
const adminRoute = routesOf(admin);
const signedInRecordRoute = recordRoutesOf(signedIn, record);
const adminRecordRoute = recordRoutesOf(admin, record);

export const routes = {
  createTable: adminRoute('POST', 'api/authService/service/table', ENSURE_TABLE, { responses: { 200: text('The table exists and is ACTIVE') } }),
  create: adminRoute('POST', 'api/authService/service', 'Register a service; the answer carries its client secret, shown only this once', {
    request: { body: strict(fields) },
    responses: { 201: ok('The service with its id and its client secret (shown only here)', withSecret), 400: invalid },
    idempotent: true,
  }),
  token: routesOf({ permission: 'public', invalidStatus: 400 })('POST', 'api/authService/service/token', "Exchange a service's id and client secret for an access token", {
    request: {
      body: strict({
        id: name(64),
        secret: Type.String({ minLength: 1, maxLength: 256, description: 'the client secret answered at registration or rotation' }),
      }),
    },
    responses: {
      200: ok(
        "An access token acting with the service's role and scope",
        Type.Object({ accessToken: Type.String(), tokenType: Type.Literal('Bearer'), expiresIn: Type.Integer() }),
      ),
      400: invalid,
      401: error('Unknown id, wrong secret or inactive service (the same answer for each)'),
    },
    function: { environment: { JWT_PRIVATE_KEY_PARAM: '${self:custom.secretParameters.jwtPrivateKey}' } },
  }),
  list: signedInRoute('GET', 'api/authService/service', 'List registered services', { responses: { 200: list('Every service (never a secret)', service) } }),
  get: signedInRecordRoute('GET', 'api/authService/service/{id}', 'Get a registered service', {
    responses: { 200: ok('The service (never its secret)', service) },
  }),
  update: adminRecordRoute('PUT', 'api/authService/service/{id}', 'Change some fields of a service; deactivating it ends its tokens at once', {
    request: {
      body: Type.Partial(strict(fields), { minProperties: 1, description: 'an object with at least one of name, description, url, active, role, scope' }),
    },
    responses: { 200: ok('The updated service (never its secret)', service) },
  }),
  rotateSecret: adminRecordRoute('POST', 'api/authService/service/{id}/rotate-secret', 'Issue a new client secret; the old one and every token issued before stop working', {
    responses: { 200: ok('The service with its new client secret (shown only here)', withSecret) },
  }),
  remove: adminRecordRoute('DELETE', 'api/authService/service/{id}', 'Delete a service', {
    responses: { 200: text('Confirmation') },
  }),
};
