/** Filter records (spec "Filters": GET/POST/DELETE /filters...): invalid input is 400. */
import { MAX_FILTER_ID, MAX_KEEP_IDS, MAX_UPSERT_ITEMS } from '#lib/config';
import { count, description, error, integerIdParam, list, name, ok, recordRoutesOf, routesOf, strict, text, Type } from './shared';

/** A client-chosen id inside a body. */
export const bodyId = Type.Integer({ minimum: 1, maximum: MAX_FILTER_ID, description: `a positive integer up to ${MAX_FILTER_ID}` });

/** DELETE keep-lists: the ids to keep; every other record goes. `[]` keeps nothing. */
export const keepList = Type.Array(bodyId, { maxItems: MAX_KEEP_IDS, description: `an array of at most ${MAX_KEEP_IDS} integer ids` });

// `null` removes the filter's device association.
const deviceSN = Type.Union([name(), Type.Null()]);

const api = routesOf({ permission: 'config:write', invalidStatus: 400 });

/** DELETE of a keep-list and GET of the count, alike for filters and filters configurations. */
export const keepOnlyRoute = (path: string, what: string) =>
  api('DELETE', path, `Delete every ${what} whose id is NOT in the array ([] deletes all)`, {
    request: { body: keepList },
    responses: { 200: text('Confirmation'), 400: error('Invalid input, each offending field named') },
  });
export const countRoute = (path: string, summary: string) => api('GET', path, summary, { permission: 'fleet:read', responses: { 200: count() } });

const filterRecord = strict({ id: bodyId, name: name(), description: Type.Optional(description), deviceSN: Type.Optional(deviceSN) });
const notFound = { description: 'No filter with that id (a bare JSON string)', schema: Type.String() };
const invalid = error('Invalid input, each offending field named');
const filter = Type.Partial(Type.Object({ id: Type.Integer(), name: Type.String(), description: Type.String(), deviceSN: Type.String() }));
const path = { id: integerIdParam };

const onFilter = recordRoutesOf({ permission: 'config:write', invalidStatus: 400 }, { path, invalid, unknown: notFound });

export const routes = {
  list: api('GET', 'filters', 'List filters (id, name) by id', { permission: 'fleet:read',
    responses: { 200: list('Every filter', Type.Partial(Type.Object({ id: Type.Integer(), name: Type.String() }))) },
  }),
  upsertList: api('POST', 'filters', 'Insert or update each filter of the list', {
    request: {
      body: Type.Array(filterRecord, {
        minItems: 1,
        maxItems: MAX_UPSERT_ITEMS,
        description: `an array of 1 to ${MAX_UPSERT_ITEMS} filter records`,
      }),
    },
    responses: { 200: text('Confirmation'), 400: invalid },
    idempotent: true,
  }),
  keepOnly: keepOnlyRoute('filters', 'filter'),
  count: countRoute('filters/count', 'Number of filters'),
  byDevice: recordRoutesOf({ permission: 'config:write', invalidStatus: 400 }, { path: { deviceSN: name() }, invalid, unknown: notFound })(
    'GET',
    'filters/device/{deviceSN}',
    'The filter of a device serial number (lowest id); a device outside a scoped caller\'s scope is 404 as one without a filter',
    { permission: 'fleet:read', responses: { 200: ok('The filter', filter) } },
  ),
  get: onFilter('GET', 'filters/{id}', 'Get a filter; 404 to a scoped caller when it names a device outside its scope', { permission: 'fleet:read', responses: { 200: ok('The filter', filter) } }),
  upsert: api('POST', 'filters/{id}', 'Insert or update one filter', {
    request: { path, body: strict({ name: name(), description, deviceSN: Type.Optional(deviceSN) }) },
    responses: { 200: text('Confirmation'), 400: invalid },
    idempotent: true,
  }),
  remove: onFilter('DELETE', 'filters/{id}', 'Delete a filter', { responses: { 200: text('Confirmation') } }),
};
