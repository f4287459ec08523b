/** Filter configurations (spec "filtersConfig": region -> locations -> rooms): invalid input is 400. */
import { MAX_LOCATIONS, MAX_ROOMS } from '#lib/config';
import { MAX_UPSERT_ITEMS } from '#lib/config';
import { error, integerIdParam, listOrPage, name, ok, page, recordRoutesOf, routesOf, text, Type, type TSchema, type TProperties } from './shared';
import { bodyId, countRoute, keepOnlyRoute } from './filterRecords';

/** Every property required, nothing else allowed. */
const all = <P extends TProperties>(properties: P) =>
  Type.Object(properties, { additionalProperties: false });

const locations = <S extends TSchema>(item: S) =>
  Type.Array(item, { maxItems: MAX_LOCATIONS, description: `an array of at most ${MAX_LOCATIONS} locations` });

const rooms = Type.Array(all({ roomName: name() }), {
  maxItems: MAX_ROOMS,
  uniqueItems: true,
  description: `an array of at most ${MAX_ROOMS} distinct rooms`,
});

const listForm = all({ id: bodyId, region: name(), locations: locations(all({ locationName: name() })) });
const invalid = error('Invalid input, each offending field named');
const notFound = { description: 'No filters configuration with that id (a bare JSON string)', schema: Type.String() };
const path = { id: integerIdParam };

const api = routesOf({ permission: 'config:write', invalidStatus: 400 });
const onConfig = recordRoutesOf({ permission: 'config:write', invalidStatus: 400 }, { path, invalid, unknown: notFound });

export const routes = {
  list: api('GET', 'filtersConfig', 'List filters configurations (list form) by id; paginated with limit/cursor; a scoped caller\'s those of its regions, with its locations only', { permission: 'fleet:read',
    request: { query: page },
    responses: {
      200: listOrPage(listForm, 'Every configuration: a bare array, or with ?limit / ?cursor one page {items, nextCursor}'),
      400: invalid,
      422: error('A cursor not answered for the same query'),
    },
  }),
  upsertList: api('POST', 'filtersConfig', 'Insert or update each configuration of the list (list form)', {
    request: {
      body: Type.Array(listForm, {
        minItems: 1,
        maxItems: MAX_UPSERT_ITEMS,
        description: `an array of 1 to ${MAX_UPSERT_ITEMS} filters configuration records`,
      }),
    },
    responses: { 200: text('Confirmation'), 400: invalid, 409: error('Lost repeated races with other writers; retry') },
    idempotent: true,
  }),
  keepOnly: keepOnlyRoute('filtersConfig', 'configuration'),
  count: countRoute('filtersConfig/count', 'Number of filters configurations the caller may list (a scoped caller\'s within its scope)'),
  get: onConfig('GET', 'filtersConfig/{id}', 'Get a filters configuration (list form); a scoped caller\'s with its locations only, 404 outside its scope', { permission: 'fleet:read', responses: { 200: ok('The configuration', listForm) } }),
  upsert: api('POST', 'filtersConfig/{id}', 'Insert or replace one configuration (nested region -> locations -> rooms)', {
    request: {
      path,
      body: all({ region: all({ regionName: name(), location: locations(all({ locationName: name(), room: rooms })) }) }),
    },
    responses: { 200: text('Confirmation'), 400: invalid },
    idempotent: true,
  }),
  remove: onConfig('DELETE', 'filtersConfig/{id}', 'Delete a filters configuration', { responses: { 200: text('Confirmation') } }),
};
