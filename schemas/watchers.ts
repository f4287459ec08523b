import {
  BOOLEAN_ELEMENTS,
  BOOLEAN_OPERATORS,
  BOOLEAN_VALUES,
  ELEMENTS,
  LIMITS,
  MAX_PENDING_SECONDS,
  MAX_SEVERITY,
  MIN_SEVERITY,
  OPERATOR_TYPES,
  OPERATORS,
} from '#lib/watchers/rules';
import { error, event, name, singleLineDescription, text, type RouteDoc, type Schema } from './common';

/** Watcher ids are UUIDs; any id made of safe characters is looked up (unknown -> 404). */
const watcherPath = {
  watcherid: {
    type: 'string',
    pattern: '^[A-Za-z0-9_-]{1,64}$',
    description: 'an id of 1 to 64 letters, digits, "-" or "_"',
  },
};

const condition: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['operator', 'value', 'element'],
  properties: {
    operator: { enum: [...OPERATORS] },
    value: {
      type: 'string',
      minLength: 1,
      maxLength: LIMITS.conditionValue,
      description: `a string of 1 to ${LIMITS.conditionValue} characters ("a,b,c" for "in")`,
    },
    element: { enum: [...ELEMENTS] },
  },
  // booleans are compared as the strings "true"/"false", and only for (in)equality
  if: { properties: { element: { enum: [...BOOLEAN_ELEMENTS] } }, required: ['element'] },
  then: {
    properties: {
      operator: { enum: [...BOOLEAN_OPERATORS], description: '"==" or "!=" for a boolean element' },
      value: { enum: [...BOOLEAN_VALUES], description: '"true" or "false" for a boolean element' },
    },
  },
};

const operations: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'operatorType', 'conditions'],
  properties: {
    type: name(),
    operatorType: { enum: [...OPERATOR_TYPES] },
    conditions: {
      type: 'array',
      minItems: 1,
      maxItems: LIMITS.conditions,
      items: condition,
      description: `an array of 1 to ${LIMITS.conditions} conditions`,
    },
  },
};

const watcherBody: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['user', 'dashboard', 'service', 'type', 'allDevices', 'severity', 'operations', 'sendEmail'],
  properties: {
    user: name(),
    dashboard: name(),
    service: name(),
    type: name(),
    devicesId: {
      type: 'array',
      maxItems: LIMITS.devicesId,
      uniqueItems: true,
      items: name(),
      description: `an array of at most ${LIMITS.devicesId} distinct device ids`,
    },
    allDevices: { type: 'boolean' },
    severity: {
      type: 'integer',
      minimum: MIN_SEVERITY,
      maximum: MAX_SEVERITY,
      description: 'an integer 1..4 (1 Critical, 2 Major, 3 Minor, 4 Info)',
    },
    operations,
    description: singleLineDescription,
    sendEmail: { type: 'boolean' },
    emails: {
      type: 'array',
      maxItems: LIMITS.emails,
      uniqueItems: true,
      items: { type: 'string', format: 'email', maxLength: LIMITS.email, description: 'a valid e-mail address' },
      description: `an array of at most ${LIMITS.emails} distinct e-mail addresses`,
    },
    channelIds: {
      type: 'array',
      maxItems: LIMITS.channelIds,
      uniqueItems: true,
      items: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'a channel id' },
      description: `an array of at most ${LIMITS.channelIds} distinct ids of notification channels (POST /channels)`,
    },
    repeatIntervalSeconds: {
      type: 'integer',
      minimum: 0,
      maximum: LIMITS.repeatIntervalSeconds.max,
      not: { exclusiveMinimum: 0, exclusiveMaximum: LIMITS.repeatIntervalSeconds.min },
      description: `0 (never) or an integer from ${LIMITS.repeatIntervalSeconds.min} to ${LIMITS.repeatIntervalSeconds.max}: re-notify open alarms once per interval`,
    },
    pendingSeconds: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_PENDING_SECONDS,
      description: `an integer 0..${MAX_PENDING_SECONDS}: seconds the condition must hold before the alarm fires (default 0)`,
    },
  },
  allOf: [
    {
      // a watcher that sends e-mails needs someone to send them to
      if: { properties: { sendEmail: { const: true } }, required: ['sendEmail'] },
      then: {
        required: ['emails'],
        properties: { emails: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'a non-empty array of e-mail addresses when sendEmail is true' } },
      },
    },
    {
      // a watcher must watch something: every device, or the listed ones
      if: { properties: { allDevices: { const: true } }, required: ['allDevices'] },
      else: {
        required: ['devicesId'],
        properties: { devicesId: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'a non-empty array of device ids unless allDevices is true' } },
      },
    },
  ],
};

export const events = {
  watcherCreate: event({ body: watcherBody }),
  watcherUpdate: event({ path: watcherPath, body: watcherBody }),
  watcherStatus: event({
    path: watcherPath,
    body: { type: 'object', additionalProperties: false, required: ['active'], properties: { active: { type: 'boolean' } } },
  }),
  watcherById: event({ path: watcherPath }),
};

const watcher: Schema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    ...(watcherBody.properties as Record<string, Schema>),
    active: { type: 'boolean' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
};
const invalid = error('Invalid input, each offending field named');
const unknown = error('No watcher with that id');
const names = (what: string): RouteDoc => ({
  summary: `Distinct ${what} across stored watchers, sorted`,
  answers: { 200: { description: `Every ${what.replace(/s$/, '')} in use`, schema: { type: 'array', items: { type: 'string' } } } },
});

export const docs: Record<string, RouteDoc> = {
  watchersCreateTable: { summary: 'Make sure the table exists (idempotent)', answers: { 200: { description: 'Always 1', schema: { const: 1 } } } },
  watchersList: { summary: 'List every watcher', answers: { 200: { description: 'Every watcher, active or not', schema: { type: 'array', items: watcher } } } },
  watchersGet: { summary: 'Get a watcher', answers: { 200: { description: 'The watcher', schema: watcher }, 400: invalid, 404: unknown } },
  watchersCreate: { summary: 'Create an alarm rule (active)', answers: { 200: { description: 'The new id', schema: { type: 'string' } }, 400: invalid } },
  watchersUpdate: {
    summary: 'Replace a watcher (full body)',
    answers: { 200: { description: 'The updated watcher', schema: watcher }, 400: invalid, 404: unknown, 409: error('Changed by another request meanwhile; retry') },
  },
  watchersRemove: { summary: 'Delete a watcher', answers: { 200: text('Confirmation'), 400: invalid, 404: unknown } },
  watchersStatus: { summary: 'Switch a watcher active or inactive', answers: { 200: { description: 'The updated watcher', schema: watcher }, 400: invalid, 404: unknown } },
  alarmFiltersDashboards: names('dashboards'),
  alarmFiltersServices: names('services'),
  alarmFiltersTypes: names('types'),
};
