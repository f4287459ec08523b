/** Intervals (spec "Intervals"; DESIGN D7, D8): invalid input is 422. */
import { INTERVAL_FIELDS, MAX_INTERVAL_SECONDS, MIN_INTERVAL_SECONDS, type IntervalField } from '#lib/intervals/types';
import { route } from '#lib/http/contract';
import { error, integerIdParam, list, ok, text, Type } from './shared';

const seconds = Type.Integer({ minimum: MIN_INTERVAL_SECONDS, maximum: MAX_INTERVAL_SECONDS });
const fields = Object.fromEntries(INTERVAL_FIELDS.map((field) => [field, seconds])) as Record<IntervalField, typeof seconds>;
const path = { id: integerIdParam };

const intervals = Type.Object(fields, { additionalProperties: false });
const record = Type.Object({ id: Type.Integer(), ...fields });
const invalid = error('Invalid id or values, each offending field named');
const unknown = error('No interval settings with that id');

export const routes = {
  createTable: route({
    method: 'POST',
    path: 'intervals/createTable',
    summary: 'Make sure the table exists (idempotent)',
    access: 'key',
    invalidStatus: 422,
    responses: { 200: text('The table exists and is ACTIVE'), 400: error('The table could not be ensured') },
  }),
  list: route({
    method: 'GET',
    path: 'intervals',
    summary: 'List interval settings by id',
    access: 'key',
    invalidStatus: 422,
    responses: { 200: list('Every record', record) },
  }),
  get: route({
    method: 'GET',
    path: 'intervals/{id}',
    summary: 'Get interval settings',
    access: 'key',
    invalidStatus: 422,
    request: { path },
    responses: { 200: ok('The record', record), 404: unknown, 422: invalid },
  }),
  create: route({
    method: 'POST',
    path: 'intervals',
    summary: 'Create interval settings (all nine fields, seconds)',
    access: 'key',
    invalidStatus: 422,
    request: { body: intervals },
    responses: { 200: ok('The stored record with its new id', record), 422: invalid },
  }),
  update: route({
    method: 'PUT',
    path: 'intervals/{id}',
    summary: 'Change some interval settings',
    access: 'key',
    invalidStatus: 422,
    request: {
      path,
      body: Type.Partial(intervals, { minProperties: 1, description: 'an object with at least one interval field' }),
    },
    responses: { 200: ok('The updated record', record), 404: unknown, 422: invalid },
  }),
  remove: route({
    method: 'DELETE',
    path: 'intervals/{id}',
    summary: 'Delete interval settings',
    access: 'key',
    invalidStatus: 422,
    request: { path },
    responses: { 200: text('Confirmation'), 404: unknown, 422: invalid },
  }),
};
