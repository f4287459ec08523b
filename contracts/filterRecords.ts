/** Filter records (spec "Filters": GET/POST/DELETE /filters...): invalid input is 400. */
import { MAX_FILTER_ID, MAX_KEEP_IDS, MAX_UPSERT_ITEMS } from '#lib/filterRecords/types';
import { route } from '#lib/http/contract';
import { count, description, error, integerIdParam, list, name, ok, strict, text, Type } from './shared';

/** A client-chosen id inside a body. */
export const bodyId = Type.Integer({ minimum: 1, maximum: MAX_FILTER_ID, description: `a positive integer up to ${MAX_FILTER_ID}` });

/** DELETE keep-lists: the ids to keep; every other record goes. `[]` keeps nothing. */
export const keepList = Type.Array(bodyId, { maxItems: MAX_KEEP_IDS, description: `an array of at most ${MAX_KEEP_IDS} integer ids` });

// `null` removes the filter's device association.
const deviceSN = Type.Union([name(), Type.Null()]);

/** DELETE of a keep-list and GET of the count, alike for filters and filters configurations. */
export const keepOnlyRoute = <P extends string>(path: P, what: string) =>
  route({
    method: 'DELETE',
    path,
    summary: `Delete every ${what} whose id is NOT in the array ([] deletes all)`,
    access: 'key',
    invalidStatus: 400,
    request: { body: keepList },
    responses: { 200: text('Confirmation'), 400: error('Invalid input, each offending field named') },
  });
export const countRoute = <P extends string>(path: P, summary: string) =>
  route({ method: 'GET', path, summary, access: 'key', invalidStatus: 400, responses: { 200: count() } });

const filterRecord = strict({ id: bodyId, name: name(), description: Type.Optional(description), deviceSN: Type.Optional(deviceSN) });
const notFound = { description: 'No filter with that id (a bare JSON string)', schema: Type.String() };
const invalid = error('Invalid input, each offending field named');
const filter = Type.Partial(Type.Object({ id: Type.Integer(), name: Type.String(), description: Type.String(), deviceSN: Type.String() }));
const path = { id: integerIdParam };

export const routes = {
  list: route({
    method: 'GET',
    path: 'filters',
    summary: 'List filters (id, name) by id',
    access: 'key',
    invalidStatus: 400,
    responses: { 200: list('Every filter', Type.Partial(Type.Object({ id: Type.Integer(), name: Type.String() }))) },
  }),
  upsertList: route({
    method: 'POST',
    path: 'filters',
    summary: 'Insert or update each filter of the list',
    access: 'key',
    invalidStatus: 400,
    request: {
      body: Type.Array(filterRecord, {
        minItems: 1,
        maxItems: MAX_UPSERT_ITEMS,
        description: `an array of 1 to ${MAX_UPSERT_ITEMS} filter records`,
      }),
    },
    responses: { 200: text('Confirmation'), 400: invalid },
  }),
  keepOnly: keepOnlyRoute('filters', 'filter'),
  count: countRoute('filters/count', 'Number of filters'),
  byDevice: route({
    method: 'GET',
    path: 'filters/device/{deviceSN}',
    summary: 'The filter of a device serial number (lowest id)',
    access: 'key',
    invalidStatus: 400,
    request: { path: { deviceSN: name() } },
    responses: { 200: ok('The filter', filter), 400: invalid, 404: notFound },
  }),
  get: route({
    method: 'GET',
    path: 'filters/{id}',
    summary: 'Get a filter',
    access: 'key',
    invalidStatus: 400,
    request: { path },
    responses: { 200: ok('The filter', filter), 400: invalid, 404: notFound },
  }),
  upsert: route({
    method: 'POST',
    path: 'filters/{id}',
    summary: 'Insert or update one filter',
    access: 'key',
    invalidStatus: 400,
    request: { path, body: strict({ name: name(), description, deviceSN: Type.Optional(deviceSN) }) },
    responses: { 200: text('Confirmation'), 400: invalid },
  }),
  remove: route({
    method: 'DELETE',
    path: 'filters/{id}',
    summary: 'Delete a filter',
    access: 'key',
    invalidStatus: 400,
    request: { path },
    responses: { 200: text('Confirmation'), 400: invalid, 404: notFound },
  }),
};
