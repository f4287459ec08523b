/** Intervals (spec "Intervals"; DESIGN D7, D8): invalid input is 422. */
import { INTERVAL_FIELDS, MAX_INTERVAL_SECONDS, MIN_INTERVAL_SECONDS, type IntervalField } from '#lib/config';
import { ENSURE_TABLE, error, integerIdParam, list, ok, recordRoutesOf, routesOf, text, Type } from './shared';

const seconds = Type.Integer({ minimum: MIN_INTERVAL_SECONDS, maximum: MAX_INTERVAL_SECONDS });
const fields = Object.fromEntries(INTERVAL_FIELDS.map((field) => [field, seconds])) as Record<IntervalField, typeof seconds>;
const path = { id: integerIdParam };

const intervals = Type.Object(fields, { additionalProperties: false });
const record = Type.Object({ id: Type.Integer(), ...fields });
const invalid = error('Invalid id or values, each offending field named');
const unknown = error('No interval settings with that id');

const api = routesOf({ permission: 'config:write', invalidStatus: 422 });
const onRecord = recordRoutesOf({ permission: 'config:write', invalidStatus: 422 }, { path, invalid, unknown });

export const routes = {
  createTable: api('POST', 'intervals/createTable', ENSURE_TABLE, {
    responses: { 200: text('The table exists and is ACTIVE'), 400: error('The table could not be ensured') },
  }),
  list: api('GET', 'intervals', 'List interval settings by id', { permission: 'fleet:read', responses: { 200: list('Every record', record) } }),
  get: onRecord('GET', 'intervals/{id}', 'Get interval settings', { permission: 'fleet:read', responses: { 200: ok('The record', record) } }),
  create: api('POST', 'intervals', 'Create interval settings (all nine fields, seconds)', {
    request: { body: intervals },
    responses: { 200: ok('The stored record with its new id', record), 422: invalid },
    idempotent: true,
  }),
  update: onRecord('PUT', 'intervals/{id}', 'Change some interval settings', {
    request: { body: Type.Partial(intervals, { minProperties: 1, description: 'an object with at least one interval field' }) },
    responses: { 200: ok('The updated record', record) },
  }),
  remove: onRecord('DELETE', 'intervals/{id}', 'Delete interval settings', { responses: { 200: text('Confirmation') } }),
};
