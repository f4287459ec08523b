/** Registered services (DESIGN §5). */
import { dateTime, description, ENSURE_TABLE, error, list, name, ok, recordRoutesOf, routesOf, strict, text, Type, uuidParam } from './shared';

const fields = {
  name: name(),
  description: Type.Optional(description),
  url: Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048, description: 'an http or https URL' }),
  active: Type.Optional(Type.Boolean()),
};
const serviceId = uuidParam('a service id (UUID)');
const service = Type.Partial(
  Type.Object({
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    url: Type.String({ format: 'uri' }),
    active: Type.Boolean(),
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
);
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
  create: adminRoute('POST', 'api/authService/service', 'Register a service', {
    request: { body: strict(fields) },
    responses: { 201: ok('The service with its id', service), 400: invalid },
    idempotent: true,
  }),
  list: signedInRoute('GET', 'api/authService/service', 'List registered services', { responses: { 200: list('Every service', service) } }),
  get: signedInRecordRoute('GET', 'api/authService/service/{id}', 'Get a registered service', {
    responses: { 200: ok('The service', service) },
  }),
  update: adminRecordRoute('PUT', 'api/authService/service/{id}', 'Change some fields of a service', {
    request: {
      body: Type.Partial(strict(fields), { minProperties: 1, description: 'an object with at least one of name, description, url, active' }),
    },
    responses: { 200: ok('The updated service', service) },
  }),
  remove: adminRecordRoute('DELETE', 'api/authService/service/{id}', 'Delete a service', {
    responses: { 200: text('Confirmation') },
  }),
};
