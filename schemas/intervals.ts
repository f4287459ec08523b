import { INTERVAL_FIELDS, MAX_INTERVAL_SECONDS, MIN_INTERVAL_SECONDS } from '#lib/intervals/fields';
import { event, integerIdParam, type Schema } from './common';

const seconds: Schema = { type: 'integer', minimum: MIN_INTERVAL_SECONDS, maximum: MAX_INTERVAL_SECONDS };
const fields = Object.fromEntries(INTERVAL_FIELDS.map((field) => [field, seconds]));

const intervalPath = { id: integerIdParam };

export const events = {
  createInterval: event({
    body: { type: 'object', additionalProperties: false, required: [...INTERVAL_FIELDS], properties: fields },
  }),
  updateInterval: event({
    path: intervalPath,
    body: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: fields,
      description: 'an object with at least one interval field',
    },
  }),
  intervalById: event({ path: intervalPath }),
};
