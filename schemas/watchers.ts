/** Watchers (spec "Watchers", "States and transitions"; DESIGN D5, D8): invalid input is 400. */
import {
  BOOLEAN_ELEMENTS,
  BOOLEAN_OPERATORS,
  BOOLEAN_VALUES,
  ELEMENTS,
  INHIBITION_OVER,
  LIMITS,
  MAX_PENDING_SECONDS,
  MAX_SEVERITY,
  MIN_SEVERITY,
  OPERATOR_TYPES,
  OPERATORS,
  type InhibitedBy,
  type Severity,
} from '#lib/watchers/types';
import { areaRoutesOf, dateTime, ENSURE_TABLE, error, listOrPage, name, ok, oneOfValues, page, SINGLE_LINE, SINGLE_LINE_RULE, singleLineDescription, strict, text, Type } from './shared';

/** Watcher ids are UUIDs; any id made of safe characters is looked up (unknown -> 404). */
export const watcherId = Type.String({
  pattern: '^[A-Za-z0-9_-]{1,64}$',
  description: 'an id of 1 to 64 letters, digits, "-" or "_"',
});
const path = { watcherid: watcherId };

const condition = strict(
  {
    operator: oneOfValues(OPERATORS),
    value: Type.String({
      minLength: 1,
      maxLength: LIMITS.conditionValue,
      // a device field never holds a control character: a value with one matches nothing (a hostile pass found it)
      pattern: SINGLE_LINE,
      description: `a string of 1 to ${LIMITS.conditionValue} characters ${SINGLE_LINE_RULE} ("a,b,c" for "in")`,
    }),
    element: oneOfValues(ELEMENTS),
  },
  {
    // booleans are compared as the strings "true"/"false", and only for (in)equality
    if: { properties: { element: { enum: [...BOOLEAN_ELEMENTS] } }, required: ['element'] },
    then: {
      properties: {
        operator: { enum: [...BOOLEAN_OPERATORS], description: '"==" or "!=" for a boolean element' },
        value: { enum: [...BOOLEAN_VALUES], description: '"true" or "false" for a boolean element' },
      },
    },
  },
);

const operations = strict({
  type: name(),
  operatorType: oneOfValues(OPERATOR_TYPES),
  conditions: Type.Array(condition, {
    minItems: 1,
    maxItems: LIMITS.conditions,
    description: `an array of 1 to ${LIMITS.conditions} conditions`,
  }),
});

/** The parent condition that suppresses a watcher's alarms (docs/guide/rules/alarms.md "A watcher declares its parent condition as `inhibitedBy`, checked when it is written"). */
const inhibitedBy = Type.Unsafe<InhibitedBy>(
  Type.Union(
    [
      strict({ condition: Type.Literal('roomOffline') }, { description: 'every device of the alarm\'s room is offline' }),
      strict(
        {
          condition: Type.Literal('locationOffline'),
          percent: Type.Integer({ minimum: 1, maximum: 100, description: 'an integer 1..100: the share of the location\'s devices offline from which the parent holds' }),
        },
        { description: 'at least `percent`% of the devices of the alarm\'s location are offline' },
      ),
      strict(
        {
          condition: Type.Literal('watcher'),
          watcherId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'the id of another existing watcher' }),
          over: oneOfValues(INHIBITION_OVER, { description: 'room or location' }),
        },
        { description: 'the other watcher has a firing alarm in the alarm\'s room or location' },
      ),
    ],
    { description: 'the parent condition: while it holds over an alarm\'s room or location, the alarm opens suppressed (nothing sent) and is told once if it still fires when the parent clears' },
  ),
);

const watcherFields = {
  user: name(),
  dashboard: name(),
  service: name(),
  type: name(),
  devicesId: Type.Optional(
    Type.Array(name(), {
      maxItems: LIMITS.devicesId,
      uniqueItems: true,
      description: `an array of at most ${LIMITS.devicesId} distinct device ids`,
    }),
  ),
  allDevices: Type.Boolean(),
  severity: Type.Unsafe<Severity>(Type.Integer({
    minimum: MIN_SEVERITY,
    maximum: MAX_SEVERITY,
    description: 'an integer 1..4 (1 Critical, 2 Major, 3 Minor, 4 Info)',
  })),
  operations,
  description: Type.Optional(singleLineDescription),
  sendEmail: Type.Boolean(),
  emails: Type.Optional(
    Type.Array(Type.String({ format: 'email', maxLength: LIMITS.email, description: 'a valid e-mail address' }), {
      maxItems: LIMITS.emails,
      uniqueItems: true,
      description: `an array of at most ${LIMITS.emails} distinct e-mail addresses`,
    }),
  ),
  channelIds: Type.Optional(
    Type.Array(Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'a channel id' }), {
      maxItems: LIMITS.channelIds,
      uniqueItems: true,
      description: `an array of at most ${LIMITS.channelIds} distinct ids of notification channels (POST /channels)`,
    }),
  ),
  repeatIntervalSeconds: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: LIMITS.repeatIntervalSeconds.max,
      not: { exclusiveMinimum: 0, exclusiveMaximum: LIMITS.repeatIntervalSeconds.min },
      description: `0 (never) or an integer from ${LIMITS.repeatIntervalSeconds.min} to ${LIMITS.repeatIntervalSeconds.max}: re-notify open alarms once per interval`,
    }),
  ),
  pendingSeconds: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_PENDING_SECONDS,
      description: `an integer 0..${MAX_PENDING_SECONDS}: seconds the condition must hold before the alarm fires (default 0)`,
    }),
  ),
  inhibitedBy: Type.Optional(inhibitedBy),
  escalation: Type.Optional(
    Type.Array(
      strict(
        {
          afterMinutes: Type.Integer({
            minimum: LIMITS.escalationAfterMinutes.min,
            maximum: LIMITS.escalationAfterMinutes.max,
            description: `an integer ${LIMITS.escalationAfterMinutes.min}..${LIMITS.escalationAfterMinutes.max}: minutes after the alarm fired (or its hold ended), greater than the step before`,
          }),
          channelIds: Type.Optional(
            Type.Array(Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'a channel id' }), {
              maxItems: LIMITS.channelIds,
              uniqueItems: true,
              description: `an array of at most ${LIMITS.channelIds} distinct ids of notification channels (POST /channels)`,
            }),
          ),
          emails: Type.Optional(
            Type.Array(Type.String({ format: 'email', maxLength: LIMITS.email, description: 'a valid e-mail address' }), {
              maxItems: LIMITS.emails,
              uniqueItems: true,
              description: `an array of at most ${LIMITS.emails} distinct e-mail addresses`,
            }),
          ),
        },
        { description: 'one step: the channels and addresses told once when the alarm is still unacknowledged afterMinutes after it fired (at least one of them)' },
      ),
      {
        minItems: 1,
        maxItems: LIMITS.escalationSteps,
        description: `1 to ${LIMITS.escalationSteps} escalation steps, afterMinutes ascending: each reached once while a firing alarm stays unacknowledged`,
      },
    ),
  ),
  flapping: Type.Optional(
    Type.Union(
      [
        Type.Literal(false, { description: 'false (every state change told)' }),
        strict(
          {
            transitions: Type.Optional(Type.Integer({ minimum: LIMITS.flapTransitions.min, maximum: LIMITS.flapTransitions.max, description: `an integer ${LIMITS.flapTransitions.min}..${LIMITS.flapTransitions.max} (default 4): state changes (fires and clears) that make a device flapping` })),
            windowMinutes: Type.Optional(Type.Integer({ minimum: LIMITS.flapWindowMinutes.min, maximum: LIMITS.flapWindowMinutes.max, description: `an integer ${LIMITS.flapWindowMinutes.min}..${LIMITS.flapWindowMinutes.max} (default 30): the minutes they count in` })),
            quietMinutes: Type.Optional(Type.Integer({ minimum: LIMITS.flapQuietMinutes.min, maximum: LIMITS.flapQuietMinutes.max, description: `an integer ${LIMITS.flapQuietMinutes.min}..${LIMITS.flapQuietMinutes.max} (default 10): minutes without a failure before a flapping alarm clears` })),
          },
          { description: 'flapping detection settings, each defaulted' },
        ),
      ],
      { description: 'false: every state change is told; else (or absent: the defaults 4, 30, 10) a device that changes state `transitions` times in `windowMinutes` keeps its alarm open, marked flapping, until `quietMinutes` pass without a failure' },
    ),
  ),
};

const watcherBody = strict(watcherFields, {
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
});

/** The scope a scoped creator gave its watcher (DESIGN §5); an unscoped watcher has none. */
const watcherScope = Type.Array(Type.Object({ region: Type.String(), location: Type.Optional(Type.String()) }), {
  description: 'the scope of the principal that created it: the watcher raises alarms only for devices inside (absent: the whole fleet)',
});
const watcher = Type.Partial(
  Type.Object({ id: Type.String(), scope: watcherScope, ...watcherFields, active: Type.Boolean(), createdAt: dateTime, updatedAt: dateTime }),
);
const outsideScope = error('A condition names a region or location outside the caller\'s scope (each such condition named, never the place)');

const { api, onRecord: onWatcher, invalid } = areaRoutesOf({ permission: 'watchers:write', invalidStatus: 400 }, { path, invalid: 'Invalid input, each offending field named', unknown: 'No watcher with that id (or none the caller\'s scope reaches)' });

export const routes = {
  createTable: api('POST', 'watcher/createTable', ENSURE_TABLE, { responses: { 200: ok('Always 1', Type.Literal(1)) } }),
  // API Gateway (and serverless-offline) match the static `watcher/all` before `watcher/{watcherid}`.
  list: api('GET', 'watcher/all', 'List every watcher (a scoped caller: those whose scope lies within its own); paginated with limit/cursor', { permission: 'fleet:read',
    request: { query: page },
    responses: {
      200: listOrPage(watcher, 'Every watcher, active or not: a bare array, or with ?limit / ?cursor one page {items, nextCursor}'),
      400: error('Invalid limit, each offending field named'),
      422: error('A cursor not answered for the same query'),
    },
  }),
  get: onWatcher('GET', 'watcher/{watcherid}', 'Get a watcher', { permission: 'fleet:read', responses: { 200: ok('The watcher', watcher) } }),
  create: api('POST', 'watcher', 'Create an alarm rule (active); a scoped caller\'s watcher keeps its scope and raises only inside it', {
    request: { body: watcherBody },
    responses: { 200: ok('The new id', Type.String()), 400: invalid, 404: outsideScope },
    idempotent: true,
    audit: { targetId: 'answer' },
  }),
  update: onWatcher('PUT', 'watcher/{watcherid}', 'Replace a watcher (full body)', {
    request: { body: watcherBody },
    responses: {
      200: ok('The updated watcher (its scope unchanged)', watcher),
      404: error('No watcher with that id (or none the caller\'s scope reaches), or a condition names a region or location outside the caller\'s scope'),
      409: error('Changed by another request meanwhile; retry'),
    },
  }),
  remove: onWatcher('DELETE', 'watcher/{watcherid}', 'Delete a watcher', { responses: { 200: text('Confirmation') } }),
  status: onWatcher('PUT', 'watcher/{watcherid}/status', 'Switch a watcher active or inactive', {
    request: { body: strict({ active: Type.Boolean() }) },
    responses: { 200: ok('The updated watcher', watcher) },
  }),
};
