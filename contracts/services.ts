/** Registered services (DESIGN §5). */
import { route } from '#lib/http/contract';
import { dateTime, description, error, list, name, ok, strict, text, Type } from './shared';

const fields = {
  name: name(),
  description: Type.Optional(description),
  url: Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048, description: 'an http or https URL' }),
  active: Type.Optional(Type.Boolean()),
};
const serviceId = Type.String({
  pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
  description: 'a service id (UUID)',
});
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
const path = { id: serviceId };
const invalid = error('Invalid input, each offending field named');
const unknown = error('No service with that id');

export const routes = {
  createTable: route({
    method: 'POST',
    path: 'api/authService/service/table',
    summary: 'Make sure the table exists (idempotent)',
    access: 'admin',
    invalidStatus: 400,
    responses: { 200: text('The table exists and is ACTIVE') },
  }),
  create: route({
    method: 'POST',
    path: 'api/authService/service',
    summary: 'Register a service',
    access: 'admin',
    invalidStatus: 400,
    request: { body: strict(fields) },
    responses: { 201: ok('The service with its id', service), 400: invalid },
  }),
  list: route({
    method: 'GET',
    path: 'api/authService/service',
    summary: 'List registered services',
    access: 'bearer',
    invalidStatus: 400,
    responses: { 200: list('Every service', service) },
  }),
  get: route({
    method: 'GET',
    path: 'api/authService/service/{id}',
    summary: 'Get a registered service',
    access: 'bearer',
    invalidStatus: 400,
    request: { path },
    responses: { 200: ok('The service', service), 400: invalid, 404: unknown },
  }),
  update: route({
    method: 'PUT',
    path: 'api/authService/service/{id}',
    summary: 'Change some fields of a service',
    access: 'admin',
    invalidStatus: 400,
    request: {
      path,
      body: Type.Partial(strict(fields), { minProperties: 1, description: 'an object with at least one of name, description, url, active' }),
    },
    responses: { 200: ok('The updated service', service), 400: invalid, 404: unknown },
  }),
  remove: route({
    method: 'DELETE',
    path: 'api/authService/service/{id}',
    summary: 'Delete a service',
    access: 'admin',
    invalidStatus: 400,
    request: { path },
    responses: { 200: text('Confirmation'), 400: invalid, 404: unknown },
  }),
};
