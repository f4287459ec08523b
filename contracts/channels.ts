/** Notification channels and their delivery log (issue 16; docs/decisions.md "Notifications"): invalid input is 400. */
import { LIMITS } from '#lib/watchers/types';
import { route } from '#lib/http/contract';
import { NOTIFICATION_TYPES, WEBHOOK_FORMATS } from '#lib/notify/types';
import { dateTime, error, list, name, ok, oneOfValues, page, strict, text, Type } from './shared';

/** How notification mails leave: the same mailer as the alarm engine's. */
const mailEnvironment = '${file(./functions/alarms/mail-env.yml)}';

const channelId = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'an id of 1 to 64 letters, digits, "-" or "_"' });
const path = { id: channelId };

const emails = Type.Array(Type.String({ format: 'email', maxLength: LIMITS.email, description: 'a valid e-mail address' }), {
  minItems: 1,
  maxItems: LIMITS.emails,
  uniqueItems: true,
  description: `an array of 1 to ${LIMITS.emails} distinct e-mail addresses`,
});
const url = Type.String({ minLength: 1, maxLength: 2048, description: 'an https URL of a public host (http on loopback only with ALLOW_LOCAL_WEBHOOKS)' });
const format = oneOfValues(WEBHOOK_FORMATS, { description: 'json (default), slack or teams' });

const emailChannel = strict({ name: name(), type: Type.Literal('email'), emails });
const webhookChannel = strict({ name: name(), type: Type.Literal('webhook'), url, format: Type.Optional(format) });
/** The body of POST and PUT: one of the two shapes, chosen by `type`. */
const channelBody = Type.Unsafe<
  { name: string; type: 'email'; emails: string[] } | { name: string; type: 'webhook'; url: string; format?: (typeof WEBHOOK_FORMATS)[number] }
>({
  type: 'object',
  required: ['name', 'type'],
  properties: { name: name(), type: { enum: ['email', 'webhook'], description: 'email or webhook' } },
  if: { properties: { type: { const: 'webhook' } }, required: ['type'] },
  then: webhookChannel,
  else: emailChannel,
});

const channel = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.String({ description: 'email or webhook' }),
  emails: Type.Optional(Type.Array(Type.String())),
  url: Type.Optional(Type.String()),
  format: Type.Optional(Type.String()),
  createdAt: dateTime,
  updatedAt: dateTime,
});
const withSecret = Type.Object({
  ...channel.properties,
  secret: Type.Optional(Type.String({ description: 'the webhook signing secret: shown in this answer only' })),
});
const delivery = Type.Object({
  deliveryId: Type.String({ description: 'stable across retries; sent as x-delivery-id' }),
  type: Type.String({ description: NOTIFICATION_TYPES.join(', ') }),
  at: dateTime,
  attempts: Type.Integer({ minimum: 0 }),
  status: Type.String({ description: 'pending, delivered, retrying, failed or suppressed' }),
  lastResponseStatus: Type.Optional(Type.Integer()),
  nextAttemptAt: Type.Optional(dateTime),
});
const invalid = error('Invalid input, each offending field named');
const unknown = error('No channel with that id');

export const routes = {
  create: route({
    method: 'POST',
    path: 'channels',
    summary: 'Create a notification channel (e-mail addresses or a signed webhook)',
    access: 'key',
    invalidStatus: 400,
    request: { body: channelBody },
    responses: { 201: ok('The channel; a webhook with its signing secret, shown only here', withSecret), 400: invalid },
  }),
  list: route({
    method: 'GET',
    path: 'channels',
    summary: 'List the notification channels',
    access: 'key',
    invalidStatus: 400,
    responses: { 200: list('Every channel (never a secret)', channel) },
  }),
  get: route({
    method: 'GET',
    path: 'channels/{id}',
    summary: 'Get a notification channel',
    access: 'key',
    invalidStatus: 400,
    request: { path },
    responses: { 200: ok('The channel (never its secret)', channel), 400: invalid, 404: unknown },
  }),
  update: route({
    method: 'PUT',
    path: 'channels/{id}',
    summary: 'Replace a channel (full body; its type cannot change)',
    access: 'key',
    invalidStatus: 400,
    request: { path, body: channelBody },
    responses: { 200: ok('The updated channel', channel), 400: invalid, 404: unknown },
  }),
  remove: route({
    method: 'DELETE',
    path: 'channels/{id}',
    summary: 'Delete a channel no watcher uses',
    access: 'key',
    invalidStatus: 400,
    request: { path },
    responses: { 200: text('Confirmation'), 400: invalid, 404: unknown, 409: error('A watcher uses the channel') },
  }),
  rotateSecret: route({
    method: 'POST',
    path: 'channels/{id}/rotate-secret',
    summary: 'Issue a new signing secret for a webhook channel',
    access: 'key',
    invalidStatus: 400,
    request: { path },
    responses: { 200: ok('The channel with its new secret, shown only here', withSecret), 400: invalid, 404: unknown, 409: error('Not a webhook channel') },
  }),
  test: route({
    method: 'POST',
    path: 'channels/{id}/test',
    summary: 'Send a test notification through the channel now',
    access: 'key',
    invalidStatus: 400,
    request: { path },
    responses: { 200: ok('The delivery after its first attempt', delivery), 400: invalid, 404: unknown },
    function: { timeout: 29, environment: mailEnvironment },
  }),
  deliveries: route({
    method: 'GET',
    path: 'channels/{id}/deliveries',
    summary: "A channel's deliveries of the last 30 days, newest first",
    access: 'key',
    // paging errors (limit, a cursor this API did not answer) are 422 as on every paginated route
    invalidStatus: 422,
    request: { path, query: page },
    responses: {
      200: ok('One page', Type.Object({ items: Type.Array(delivery), nextCursor: Type.Unsafe<string | null>({ type: ['string', 'null'] }) })),
      422: invalid,
      404: unknown,
    },
  }),
};
