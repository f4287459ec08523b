import { MAX_FILTER_ID, MAX_KEEP_IDS, MAX_UPSERT_ITEMS } from '#lib/filters/records';
import { description, error, event, integerIdParam, name, text, type RouteDoc, type Schema } from './common';

/** A client-chosen id inside a body. */
export const bodyId: Schema = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_FILTER_ID,
  description: `a positive integer up to ${MAX_FILTER_ID}`,
};

/** DELETE keep-lists: the ids to keep; every other record goes. `[]` keeps nothing. */
export const keepList: Schema = {
  type: 'array',
  maxItems: MAX_KEEP_IDS,
  items: bodyId,
  description: `an array of at most ${MAX_KEEP_IDS} integer ids`,
};

// `null` removes the filter's device association.
const deviceSN: Schema = { anyOf: [name(), { type: 'null' }] };

const filterRecord: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name'],
  properties: { id: bodyId, name: name(), description, deviceSN },
};

export const events = {
  filtersUpsertList: event({
    body: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_UPSERT_ITEMS,
      items: filterRecord,
      description: `an array of 1 to ${MAX_UPSERT_ITEMS} filter records`,
    },
  }),
  filtersKeepOnly: event({ body: keepList }),
  filtersById: event({ path: { id: integerIdParam } }),
  filtersUpsert: event({
    path: { id: integerIdParam },
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'description'],
      properties: { name: name(), description, deviceSN },
    },
  }),
  filtersByDevice: event({ path: { deviceSN: name() } }),
};

const notFound = (what: string) => ({ description: `No ${what} with that id (a bare JSON string)`, schema: { type: 'string' } });
const invalid = error('Invalid input, each offending field named');
const count: Schema = { type: 'integer', minimum: 0 };
const filter: Schema = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' }, description: { type: 'string' }, deviceSN: { type: 'string' } },
};

export const docs: Record<string, RouteDoc> = {
  filtersList: {
    summary: 'List filters (id, name) by id',
    answers: { 200: { description: 'Every filter', schema: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } } } },
  },
  filtersUpsertList: { summary: 'Insert or update each filter of the list', answers: { 200: text('Confirmation'), 400: invalid } },
  filtersKeepOnly: {
    summary: 'Delete every filter whose id is NOT in the array ([] deletes all)',
    answers: { 200: text('Confirmation'), 400: invalid },
  },
  filtersCount: { summary: 'Number of filters', answers: { 200: { description: 'The count', schema: count } } },
  filtersByDevice: { summary: 'The filter of a device serial number (lowest id)', answers: { 200: { description: 'The filter', schema: filter }, 400: invalid, 404: notFound('filter') } },
  filtersGet: { summary: 'Get a filter', answers: { 200: { description: 'The filter', schema: filter }, 400: invalid, 404: notFound('filter') } },
  filtersUpsert: { summary: 'Insert or update one filter', answers: { 200: text('Confirmation'), 400: invalid } },
  filtersRemove: { summary: 'Delete a filter', answers: { 200: text('Confirmation'), 400: invalid, 404: notFound('filter') } },
};
