import { MAX_LOCATIONS, MAX_ROOMS } from '#lib/filters/config';
import { MAX_UPSERT_ITEMS } from '#lib/filters/records';
import { event, integerIdParam, name, type Schema } from './common';
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
