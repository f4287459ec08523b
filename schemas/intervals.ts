import { INTERVAL_FIELDS, MAX_INTERVAL_SECONDS, MIN_INTERVAL_SECONDS } from '#lib/intervals/fields';
import { error, event, integerIdParam, text, type RouteDoc, type Schema } from './common';

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

const record: Schema = {
  type: 'object',
  required: ['id', ...INTERVAL_FIELDS],
  properties: { id: { type: 'integer' }, ...fields },
};
const invalid = error('Invalid id or values, each offending field named');
const unknown = error('No interval settings with that id');

export const docs: Record<string, RouteDoc> = {
  intervalsCreateTable: {
    summary: 'Make sure the table exists (idempotent)',
    answers: { 200: text('The table exists and is ACTIVE'), 400: error('The table could not be ensured') },
  },
  intervalsList: { summary: 'List interval settings by id', answers: { 200: { description: 'Every record', schema: { type: 'array', items: record } } } },
  intervalsGet: { summary: 'Get interval settings', answers: { 200: { description: 'The record', schema: record }, 404: unknown, 422: invalid } },
  intervalsCreate: {
    summary: 'Create interval settings (all nine fields, seconds)',
    answers: { 200: { description: 'The stored record with its new id', schema: record }, 422: invalid },
  },
  intervalsUpdate: {
    summary: 'Change some interval settings',
    answers: { 200: { description: 'The updated record', schema: record }, 404: unknown, 422: invalid },
  },
  intervalsRemove: { summary: 'Delete interval settings', answers: { 200: text('Confirmation'), 404: unknown, 422: invalid } },
};
