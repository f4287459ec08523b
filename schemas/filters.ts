import { MAX_FILTER_ID, MAX_KEEP_IDS, MAX_UPSERT_ITEMS } from '#lib/filters/records';
import { description, event, integerIdParam, name, type Schema } from './common';

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
