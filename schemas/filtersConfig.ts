import { MAX_LOCATIONS, MAX_ROOMS } from '#lib/filters/config';
import { MAX_UPSERT_ITEMS } from '#lib/filters/records';
import { error, event, integerIdParam, name, text, type RouteDoc, type Schema } from './common';
import { bodyId, keepList } from './filters';

const object = (properties: Record<string, Schema>): Schema => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});

const locations = (item: Schema): Schema => ({
  type: 'array',
  maxItems: MAX_LOCATIONS,
  items: item,
  description: `an array of at most ${MAX_LOCATIONS} locations`,
});

const rooms: Schema = {
  type: 'array',
  maxItems: MAX_ROOMS,
  uniqueItems: true,
  items: object({ roomName: name() }),
  description: `an array of at most ${MAX_ROOMS} distinct rooms`,
};

const listForm = object({ id: bodyId, region: name(), locations: locations(object({ locationName: name() })) });

export const events = {
  filtersConfigUpsertList: event({
    body: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_UPSERT_ITEMS,
      items: listForm,
      description: `an array of 1 to ${MAX_UPSERT_ITEMS} filters configuration records`,
    },
  }),
  filtersConfigKeepOnly: event({ body: keepList }),
  filtersConfigById: event({ path: { id: integerIdParam } }),
  filtersConfigUpsert: event({
    path: { id: integerIdParam },
    body: object({
      region: object({
        regionName: name(),
        location: locations(object({ locationName: name(), room: rooms })),
      }),
    }),
  }),
};

const invalid = error('Invalid input, each offending field named');
const notFound = { description: 'No filters configuration with that id (a bare JSON string)', schema: { type: 'string' } };

export const docs: Record<string, RouteDoc> = {
  filtersConfigList: { summary: 'List filters configurations (list form) by id', answers: { 200: { description: 'Every configuration', schema: { type: 'array', items: listForm } } } },
  filtersConfigUpsertList: { summary: 'Insert or update each configuration of the list (list form)', answers: { 200: text('Confirmation'), 400: invalid, 409: error('Lost repeated races with other writers; retry') } },
  filtersConfigKeepOnly: { summary: 'Delete every configuration whose id is NOT in the array ([] deletes all)', answers: { 200: text('Confirmation'), 400: invalid } },
  filtersConfigCount: { summary: 'Number of filters configurations', answers: { 200: { description: 'The count', schema: { type: 'integer', minimum: 0 } } } },
  filtersConfigGet: { summary: 'Get a filters configuration (list form)', answers: { 200: { description: 'The configuration', schema: listForm }, 400: invalid, 404: notFound } },
  filtersConfigUpsert: { summary: 'Insert or replace one configuration (nested region -> locations -> rooms)', answers: { 200: text('Confirmation'), 400: invalid } },
  filtersConfigRemove: { summary: 'Delete a filters configuration', answers: { 200: text('Confirmation'), 400: invalid, 404: notFound } },
};
